import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeReply, type RecordedRequest, startFakeLlm, text } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ownedPrefixes } from '../../kit/redis.ts';
import { cardsIn, continues, lastToolResults, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send } from '../routing/helpers.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

/** The executor acknowledges its card, then takes `pauseMs` before a second call: a slow answer. */
function ackThenSlowCall(req: RecordedRequest, pauseMs: number): FakeReply {
  const card = cardsIn(req)[0] ?? 'none';
  return {
    type: 'message',
    toolCalls: [
      { name: 'reply', arguments: { to: card, text: `On it: ${card}.` } },
      { name: 'read_card', arguments: { card } },
    ],
    pauseBeforeCall: { index: 1, ms: pauseMs },
  };
}

const replies = async (app: TestApp, chat: string, cardId: string) =>
  (await botMessages(app.ctx, chat)).filter((m) => m.op === 'local.reply' && m.text.includes(cardId));

describe('issue 18: the acknowledgement goes out as soon as its call is complete in the stream', () => {
  const w = useModelApp();

  it('R-C2: the acknowledgement is delivered before the model’s answer ends, and only once', async () => {
    w.llm.respond((req) => {
      if (continues(req)) return text('Done.');
      return roleOf(req) === 'executor' ? ackThenSlowCall(req, 8000) : text('nothing');
    });
    const chat = `early-${randomUUID().slice(0, 8)}`;
    const card = await send(w.app.ctx, localMessage('please rename the billing module', { chat }));
    await waitFor(async () => (await replies(w.app, chat, card)).length, 'the acknowledgement');
    const answer = w.llm.requests.find((r) => roleOf(r) === 'executor' && cardsIn(r).includes(card));
    expect(answer?.stream).toBe(true);
    // The answer is still streaming (its second call is minutes away in model time).
    expect(answer?.answeredAt).toBeUndefined();
    const after = await waitFor(
      () => w.llm.requests.find((r) => roleOf(r) === 'executor' && lastToolResults(r).length === 2),
      'the rest of the turn',
      20_000,
    );
    // (Host notes may follow that request: the script acknowledges and ends without a report.)
    const results = lastToolResults(after);
    expect(results[0]).toBe(`reply queued to ${card}`);
    expect(await replies(w.app, chat, card)).toHaveLength(1);
  });
});

describe('issue 18: a turn resumed after the early acknowledgement sends it no second time', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close();
  });

  it('R-C2: the worker stops mid-answer after the early acknowledgement; the resumed turn’s new acknowledgement is refused', async () => {
    let round = 0;
    const llm = await startFakeLlm({
      handler: (req) => {
        if (roleOf(req) !== 'executor') return text('nothing');
        if (continues(req)) return text('Done.');
        round++;
        const card = cardsIn(req)[0] ?? 'none';
        // First answer: the acknowledgement, then a stall the shutdown cuts. Then the same again, whole.
        if (round === 1) return ackThenSlowCall(req, 30_000);
        return {
          type: 'message',
          toolCalls: [{ name: 'reply', arguments: { to: card, text: `On it: ${card}.` } }],
        };
      },
    });
    const env = { KEY_PREFIX: ownPrefix(), LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' };
    const first = await startTestApp(env);
    apps.push(first);
    const chat = `resume-${randomUUID().slice(0, 8)}`;
    const card = await send(first.ctx, localMessage('please bump the lockfile', { chat }));
    await waitFor(async () => (await replies(first, chat, card)).length, 'the early acknowledgement');
    // The worker shuts down while the answer streams: nothing of it is stored.
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    const second = await startTestApp(env);
    apps.push(second);
    const end = await waitFor(
      () => llm.requests.find((r) => roleOf(r) === 'executor' && lastToolResults(r).length === 1),
      'the resumed turn',
      30_000,
    );
    expect(round).toBe(2);
    expect(lastToolResults(end)[0]).toMatch(/already acknowledged.*R-C2/);
    await new Promise((r) => setTimeout(r, 500));
    expect(await replies(second, chat, card)).toHaveLength(1);
    await llm.close();
  });
});
