import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPaused } from '../../../src/tickets/pause.ts';
import { waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { cardAction, groupMention, sendFeishuEvent, threadReply } from '../../kit/feishu-webhook.ts';
import { onlyTicket, ticketCardIds } from '../routing/helpers.ts';
import { ADMIN_TOKEN, ENCRYPT_KEY, gaps, type StatusWorld, scriptTurns, startStatusWorld } from './world.ts';

const QUESTION = { question: 'Which database should the cache use?', choices: ['SQLite', 'Postgres'] };

describe('one live status card per ticket on Feishu (issue 9)', () => {
  let w: StatusWorld;
  const send = (event: unknown) => sendFeishuEvent(w.hook, event, { encryptKey: ENCRYPT_KEY });
  const cardsTo = (messageId: string) =>
    w.feishu.messages.filter((m) => m.msgType === 'interactive' && m.parentId === messageId);
  const patchesOf = (messageId: string) => w.feishu.patches.filter((p) => p.messageId === messageId);
  /** The card as people see it now: its last edit, else as it was sent. */
  const lastCard = (messageId: string) => {
    const content =
      patchesOf(messageId).at(-1)?.content ??
      w.feishu.messages.find((m) => m.messageId === messageId)?.content;
    return content ? (JSON.parse(content) as { header: { subtitle: { content: string } } }) : undefined;
  };
  const subtitle = (messageId: string) => lastCard(messageId)?.header.subtitle.content ?? '';
  const patchCallTimes = (messageId: string) =>
    w.feishu.calls.filter((c) => c.method === 'PATCH' && c.path.endsWith(`/${messageId}`)).map((c) => c.at);

  beforeEach(async () => {
    w = await startStatusWorld();
    // Specific triggers first: every turn's input also carries the ticket's title.
    scriptTurns(w.llm, [
      [
        'pressed answer',
        (k) =>
          k === 0 ? toolCalls(['report', { status: 'working', summary: 'Going with Postgres.' }]) : undefined,
      ],
      [
        'finish up',
        (k) => (k === 0 ? toolCalls(['report', { status: 'done', summary: 'Cache added.' }]) : undefined),
      ],
      [
        'please add a cache',
        (k, card) => {
          if (k === 0) return toolCalls(['reply', { to: card, text: 'I will add a cache to the API.' }]);
          if (k <= 30) return toolCalls(['report', { status: 'working', summary: `step ${k} of 30` }]);
          if (k === 31)
            return toolCalls([
              'report',
              { status: 'working', summary: 'Need a choice.', human_action: QUESTION },
            ]);
          return undefined;
        },
      ],
      [
        'please rename the module',
        (k, card) => {
          if (k === 0) return toolCalls(['reply', { to: card, text: 'I will rename the module.' }]);
          if (k <= 5) return toolCalls(['report', { status: 'working', summary: `rename step ${k}` }]);
          if (k === 6) return toolCalls(['report', { status: 'done', summary: 'Module renamed.' }]);
          return undefined;
        },
      ],
      [
        'please tune the logs',
        (k, card) => {
          if (k === 0) return toolCalls(['reply', { to: card, text: 'I will tune the log levels.' }]);
          if (k <= 10) return toolCalls(['report', { status: 'working', summary: `log step ${k}` }]);
          if (k === 11) return toolCalls(['report', { status: 'done', summary: 'Logs tuned.' }]);
          return undefined;
        },
      ],
    ]);
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-D1, R-C5, R-B2: open → 30 steps → question → button answer → button pause → resume → done is one card, edited in place', async () => {
    const { ctx } = w.app;
    await send(
      groupMention('please add a cache', w.feishu.bot.openId, {
        messageId: 'om_req_cache',
        senderOpenId: 'ou_alice',
      }),
    );
    const status = await waitFor(() => cardsTo('om_req_cache')[0], 'the status card');
    const id = status.messageId;
    const ticket = await onlyTicket(ctx);
    await waitFor(() => subtitle(id).includes('Waiting for an answer'), 'the question on the card', 30_000);
    const waiting = JSON.stringify(lastCard(id));
    expect(waiting).toContain('Which database should the cache use?');
    expect(waiting).toContain('"action":"answer:2"');
    // Issue 15: asked once — on the card, whose buttons answer it; no separate text reply asks it.
    expect(w.feishu.messages.filter((m) => m.text?.includes(QUESTION.question))).toEqual([]);

    // R-A5: a press by someone not allowed changes nothing: no pause, no answer, nothing attached.
    const cardsBefore = (await ticketCardIds(ctx, ticket)).length;
    expect(cardsBefore).toBeGreaterThan(0);
    await send(cardAction({ value: { action: 'pause' }, openMessageId: id, operatorOpenId: 'ou_mallory' }));
    await send(
      cardAction({ value: { action: 'answer:1' }, openMessageId: id, operatorOpenId: 'ou_mallory' }),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await isPaused(ctx, ticket)).toBe(false);
    expect(await ticketCardIds(ctx, ticket)).toHaveLength(cardsBefore);
    expect(subtitle(id)).toContain('Waiting for an answer');

    // R-H5: the same card pressed in another chat (forwarded there) neither answers nor pauses.
    for (const action of ['answer:1', 'pause'])
      await send(
        cardAction({
          value: { action },
          openMessageId: id,
          operatorOpenId: 'ou_alice',
          chatId: 'oc_elsewhere',
        }),
      );
    await new Promise((r) => setTimeout(r, 500));
    expect(await isPaused(ctx, ticket)).toBe(false);
    expect(subtitle(id)).toContain('Waiting for an answer');

    await send(cardAction({ value: { action: 'answer:2' }, openMessageId: id, operatorOpenId: 'ou_alice' }));
    const answered = await waitFor(
      () => w.llm.requests.find((r) => JSON.stringify(r.messages).includes('pressed answer 2')),
      'the executor to see the answer',
      20_000,
    );
    expect(JSON.stringify(answered.messages)).toContain('Postgres');
    await waitFor(
      () => JSON.stringify(lastCard(id)).includes('Going with Postgres.'),
      'the answer on the card',
      20_000,
    );
    expect(JSON.stringify(lastCard(id))).toContain('**Answered:** Postgres');

    await send(cardAction({ value: { action: 'pause' }, openMessageId: id, operatorOpenId: 'ou_alice' }));
    await waitFor(() => subtitle(id).includes('Paused'), 'the paused card', 20_000);
    expect(JSON.stringify(lastCard(id))).toContain('"action":"resume"');
    await send(cardAction({ value: { action: 'resume' }, openMessageId: id, operatorOpenId: 'ou_alice' }));
    await waitFor(
      async () => !(await isPaused(ctx, ticket)) && subtitle(id).includes('Working'),
      'resumed',
      20_000,
    );

    // R-B2: a reply to the status card attaches to the ticket and reaches its executor.
    await send(
      threadReply('looks good, finish up', id, { senderOpenId: 'ou_alice', messageId: 'om_finish' }),
    );
    await waitFor(() => subtitle(id).includes('Done'), 'the done card', 30_000);
    expect(JSON.stringify(lastCard(id))).toContain('Cache added.');

    expect(cardsTo('om_req_cache')).toHaveLength(1);
    expect(w.feishu.messages.filter((m) => m.msgType === 'interactive')).toHaveLength(1);
    const times = patchCallTimes(id);
    expect(Math.min(...gaps(times))).toBeGreaterThanOrEqual(200);
    expect(times.length).toBeLessThan(25);

    // The panel's ticket page shows the same status as the card.
    const res = await fetch(`${w.app.url}/api/tickets/${ticket}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const detail = (await res.json()) as { status: { state: string; summary: string; question?: unknown } };
    expect(detail.status).toMatchObject({ state: 'done', summary: 'Cache added.' });
  }, 120_000);

  it('R-D1: a 230020 rate-limit answer slows edits without losing the final state', async () => {
    await send(
      groupMention('please tune the logs', w.feishu.bot.openId, {
        messageId: 'om_req_logs',
        senderOpenId: 'ou_alice',
      }),
    );
    const status = await waitFor(() => cardsTo('om_req_logs')[0], 'the status card');
    const id = status.messageId;
    w.feishu.fail(3, { code: 230020, msg: 'rate limited' }, new RegExp(`/messages/${id}$`));
    await waitFor(() => subtitle(id).includes('Done'), 'the done card despite rate limits', 30_000);
    expect(JSON.stringify(lastCard(id))).toContain('Logs tuned.');
    const calls = w.feishu.calls.filter((c) => c.method === 'PATCH' && c.path.endsWith(`/${id}`));
    const refused = calls.filter((_, i) => i < calls.length - patchesOf(id).length);
    expect(refused.length).toBe(3);
    expect(Math.min(...gaps(calls.map((c) => c.at)))).toBeGreaterThanOrEqual(200);
    expect(cardsTo('om_req_logs')).toHaveLength(1);
  }, 120_000);

  it('R-D1: an edit that fails for good falls back to one new status message, once, edited from then on', async () => {
    await send(
      groupMention('please rename the module', w.feishu.bot.openId, {
        messageId: 'om_req_rename',
        senderOpenId: 'ou_alice',
      }),
    );
    const first = await waitFor(() => cardsTo('om_req_rename')[0], 'the status card');
    // Feishu refuses every edit of the first card for good (not a rate limit: no retry helps).
    w.feishu.fail(
      1000,
      { code: 230031, msg: 'message cannot be edited' },
      new RegExp(`/messages/${first.messageId}$`),
    );
    const second = await waitFor(() => cardsTo('om_req_rename')[1], 'the one fallback card', 20_000);
    await waitFor(() => subtitle(second.messageId).includes('Done'), 'the fallback card done', 20_000);
    expect(JSON.stringify(lastCard(second.messageId))).toContain('Module renamed.');
    expect(patchesOf(first.messageId)).toEqual([]);
    expect(cardsTo('om_req_rename')).toHaveLength(2);
  }, 120_000);
});
