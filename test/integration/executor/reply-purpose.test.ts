import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { type FakeReply, type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { cardsIn, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send } from '../routing/helpers.ts';

/**
 * Issue 28's bad habit "a second `reply` without `purpose`": the prompts document
 * `reply({ to, text, purpose? })`, and a model that leaves the purpose out of the reply carrying
 * its result must still reach the person. Left out, the purpose is the acknowledgement only until
 * the model has seen its card acknowledged (R-C2 keeps refusing a second acknowledgement).
 */
describe('issue 28: a reply without purpose after the acknowledgement is a result (R-C2)', () => {
  const w = useModelApp();
  const replies = async (chat: string) =>
    (await botMessages(w.app.ctx, chat)).filter((m) => m.op === 'local.reply').map((m) => m.text);

  /** Every executor request in order, each answered by its step (past them: a closing text). */
  function executorSteps(steps: ((req: RecordedRequest, card: string) => FakeReply)[]) {
    const seen: RecordedRequest[] = [];
    let card = '';
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('ok') : openAll(req);
      if (!seen.length) card = cardsIn(req)[0] ?? '';
      seen.push(req);
      return steps[seen.length - 1]?.(req, card) ?? text('Done.');
    });
    return seen;
  }

  it('issue 28: the acknowledgement, then a purpose-less reply with the result in the next answer: both delivered, no extra step', async () => {
    const chat = `purpose-${randomUUID().slice(0, 8)}`;
    const seen = executorSteps([
      (_r, to) => toolCalls(['reply', { to, text: 'On it: the CSV export, expect a PR today.' }]),
      (_r, to) => toolCalls(['reply', { to, text: 'The PR is acme/web#7.' }]),
      (_r, to) => toolCalls(['report', { status: 'done', summary: `Answered ${to}.` }]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please fix the CSV export', { chat }));
    await waitFor(() => seen.length >= 4, 'the executor turn', 30_000);
    expect(lastToolResults(seen[1] as RecordedRequest)).toEqual([`reply queued to ${card}`]);
    expect(lastToolResults(seen[2] as RecordedRequest)).toEqual([
      `reply queued to ${card} (as a result: ${card} was acknowledged already)`,
    ]);
    await waitFor(async () => (await replies(chat)).length >= 2, 'both replies');
    expect(await replies(chat)).toEqual([
      'On it: the CSV export, expect a PR today.',
      'The PR is acme/web#7.',
    ]);
    // The habit costs nothing: acknowledgement, result, report, and the turn's closing request.
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toHaveLength(4);
  });

  it('issue 28: a purpose-less result in the same answer as the acknowledgement is refused (not seen yet), and the same reply one answer later goes out: recovered within 1 step', async () => {
    const chat = `purpose-${randomUUID().slice(0, 8)}`;
    const seen = executorSteps([
      (_r, to) =>
        toolCalls(
          ['reply', { to, text: 'On it: the CSV export.' }],
          ['reply', { to, text: 'The PR is acme/web#8.' }],
        ),
      (_r, to) => toolCalls(['reply', { to, text: 'The PR is acme/web#8.' }]),
      (_r, to) => toolCalls(['report', { status: 'done', summary: `Answered ${to}.` }]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please fix the CSV export', { chat }));
    await waitFor(() => seen.length >= 4, 'the executor turn', 30_000);
    expect(lastToolResults(seen[1] as RecordedRequest)).toEqual([
      `reply queued to ${card}`,
      `Error: refused: ${card} was already acknowledged; acknowledge once (R-C2). Use purpose "result" or "answer" for something new`,
    ]);
    expect(lastToolResults(seen[2] as RecordedRequest)).toEqual([
      `reply queued to ${card} (as a result: ${card} was acknowledged already)`,
    ]);
    await waitFor(async () => (await replies(chat)).length >= 2, 'both replies');
    expect(await replies(chat)).toEqual(['On it: the CSV export.', 'The PR is acme/web#8.']);
  });

  it('R-C2: an explicit second acknowledgement in a later answer is still refused, and nothing of it is sent', async () => {
    const chat = `purpose-${randomUUID().slice(0, 8)}`;
    const seen = executorSteps([
      (_r, to) => toolCalls(['reply', { to, text: 'On it.' }]),
      (_r, to) => toolCalls(['reply', { to, purpose: 'ack', text: 'On it, again.' }]),
      (_r, to) => toolCalls(['report', { status: 'done', summary: `Answered ${to}.` }]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please fix the CSV export', { chat }));
    await waitFor(() => seen.length >= 4, 'the executor turn', 30_000);
    expect(lastToolResults(seen[2] as RecordedRequest)[0]).toMatch(
      new RegExp(`^Error: refused: ${card} was already acknowledged; acknowledge once \\(R-C2\\)`),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await replies(chat)).toEqual(['On it.']);
  });
});
