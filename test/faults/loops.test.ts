import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasCandidates } from '../../src/router/candidates.ts';
import { getPause } from '../../src/tickets/pause.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from '../integration/routing/helpers.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeLlm, type RecordedRequest, startFakeLlm, text, toolCalls } from '../kit/fake-llm.ts';
import { ackAll, cardsIn, openAll, roleOf, scriptedModel } from '../kit/scripted-model.ts';
import { type GitHubWorld, settle, startGitHubWorld } from './github-world.ts';

describe('bot loops start no work (R-A2, issue 8)', () => {
  let w: GitHubWorld;
  // Each test its own product, fakes and key prefix (issue 20).
  beforeEach(async () => {
    w = await startGitHubWorld();
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll, onResults: () => text('Done.') }));
  });
  afterEach(async () => w?.close());

  it('R-A2: two bot accounts mentioning each other (and this bot) start nothing and reach no model', async () => {
    const main = w.requests('main');
    const cards: string[] = [];
    for (let i = 0; i < 4; i++) {
      const [from, to] = i % 2 ? ['lint-bot', 'deploy-bot'] : ['deploy-bot', 'lint-bot'];
      const body = `@${to} @switchyard-bot round ${i}: please run again`;
      cards.push(await w.comment({ login: `${from}[bot]`, type: 'Bot' }, body, 20));
    }
    for (const c of cards) expect(await w.routed(c)).toMatchObject({ kind: 'ignored' });
    expect(await hasCandidates(w.app.ctx)).toBe(false);
    await settle();
    expect(w.requests('main')).toBe(main);
  });

  it('R-A2: the bot’s own comments echoed back, also on its ticket’s issue, start no turn', async () => {
    const ticket = await w.open('ada', '@switchyard-bot please fix the login redirect');
    const before = w.requests('executor', ticket);
    for (const body of ['On it: I will fix the redirect.', '@switchyard-bot /resume', 'Done: see the PR.']) {
      const card = await w.comment(w.gh.botLogin, body);
      expect(await w.routed(card)).toEqual({ kind: 'ignored', reason: 'our own event (R-A2)' });
    }
    await settle();
    expect(w.requests('executor', ticket)).toBe(before);
  });
});

/** An executor that never stops: each request gets `step`, forever. */
function runaway(llm: FakeLlm, step: (req: RecordedRequest, card: string) => ReturnType<typeof text>) {
  let card = '';
  llm.respond((req) => {
    if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
    card ||= cardsIn(req)[0] ?? '';
    return step(req, card);
  });
}

describe('the per-ticket circuit breaker stops a runaway turn and asks a person once (issue 8)', () => {
  let llm: FakeLlm;
  let app: TestApp;
  // Each test its own product and key prefix (issue 20): the breaker counts per ticket and hour.
  beforeEach(async () => {
    llm = await startFakeLlm();
    app = await startTestApp({
      LLM_BASE_URL: llm.baseURL,
      LLM_API_KEY: 'sk-loops',
      BREAKER_MESSAGES_PER_HOUR: '3',
      BREAKER_MODEL_REQUESTS_PER_HOUR: '5',
    });
  });
  afterEach(async () => {
    await app?.close();
    await llm?.close();
  });
  const executorRequests = (ticketId: string) =>
    llm.requests.filter(
      (r) => roleOf(r) === 'executor' && JSON.stringify(r.messages).includes(`Ticket ${ticketId}:`),
    ).length;
  const breakerAsks = async (chat: string) =>
    (await botMessages(app.ctx, chat)).filter((m) => m.text.startsWith('I paused'));

  it('messages: past 3 per hour the ticket is paused by the breaker, the rest held, one question naming the limit', async () => {
    runaway(llm, (_req, card) => toolCalls(['reply', { to: card, text: 'Still going.', purpose: 'result' }]));
    const card = await send(app.ctx, localMessage('please loop forever', { chat: 'loop-a' }));
    const ticket = await ticketOpenedBy(app.ctx, card);
    await waitFor(async () => (await breakerAsks('loop-a')).length, 'the breaker’s question');
    expect(await getPause(app.ctx, ticket)).toMatchObject({ via: 'breaker', by: 'circuit breaker' });
    await settle(800);
    const msgs = await botMessages(app.ctx, 'loop-a');
    expect(msgs.filter((m) => m.text === 'Still going.')).toHaveLength(3);
    const asks = await breakerAsks('loop-a');
    expect(asks).toHaveLength(1);
    expect(asks[0]?.text).toContain('limit of 3 messages per hour');
    const requests = executorRequests(ticket);
    await settle(500);
    expect(executorRequests(ticket)).toBe(requests);
  });

  it('model requests: past 5 per hour the turn stops before the sixth; a person’s /resume grants a fresh hour', async () => {
    runaway(llm, () => toolCalls(['reply', { to: 'no-such-card', text: 'x' }]));
    const card = await send(app.ctx, localMessage('please think forever', { chat: 'loop-b' }));
    const ticket = await ticketOpenedBy(app.ctx, card);
    await waitFor(async () => (await breakerAsks('loop-b')).length, 'the breaker’s question');
    await settle(500);
    expect(executorRequests(ticket)).toBe(5);
    const [ask] = await breakerAsks('loop-b');
    expect(ask?.text).toContain('limit of 5 model requests per hour');
    expect(await getPause(app.ctx, ticket)).toMatchObject({ via: 'breaker' });
    // A bot cannot lift it (R-D2); a person replying /resume to the question does.
    await send(app.ctx, localMessage('/resume', { chat: 'loop-b', replyTo: ask?.messageId ?? '' }));
    await waitFor(async () => (await breakerAsks('loop-b')).length === 2, 'the second trip');
    expect(executorRequests(ticket)).toBe(10);
  });
});
