import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextPrompts } from '../../../src/session/context/context-prompts.ts';
import { createTranscriptStore } from '../../../src/session/transcript-store.ts';
import { listTickets } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { fakePromptTokens } from '../../kit/fake-llm-window.ts';
import { cardsIn, openAll, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send } from '../routing/helpers.ts';
import { startWorld, type World } from './harness.ts';

const WINDOW = 64_000;
const READS = 40;
/** 50 kB of text whose every line says where it is, so head, tail and the whole are told apart. */
const BIG = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, '0')}: ${'x'.repeat(38)}`)
  .join('\n')
  .slice(0, 50_000);

const isSummary = (req: RecordedRequest) => req.system === contextPrompts.summarise;
/** Card ids as a card block writes them, or as the fake summariser below does. */
const cardIds = (s: string) =>
  [...s.matchAll(/<card id="([^"]+)"|cards: ([\w-]+)/g)].map((m) => (m[1] ?? m[2]) as string);

/**
 * Issue 12 "What it must show": a ticket whose executor reads a 50 kB file 40 times (~2 MB of tool
 * output) finishes inside a 64k-token window with its work intact.
 */
describe('a long ticket inside a 64k-token window (issue 12, R-H2)', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ LLM_CONTEXT_TOKENS: String(WINDOW) }, { files: { 'data/big.txt': BIG } });
    w.setContextWindow({ tokens: WINDOW });
  });
  afterAll(async () => {
    await w.close();
  });

  it('R-H2: 40 reads of a 50 kB file (~2 MB of output) finish with every request inside the window, the card still known at the end, and the compaction in the transcript', async () => {
    let reads = 0;
    let card = '';
    const final: RecordedRequest[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      if (isSummary(req)) {
        // The fake summariser keeps what it is given: the card ids and how many reads it saw.
        const input = req.messages.at(-1)?.content ?? '';
        const before = Number(/read data\/big\.txt (\d+) times/.exec(input)?.[1] ?? 0);
        const seen = (input.match(/read_file\(\{"path":"data\/big\.txt"\}\) id=/g) ?? []).length;
        return text(
          `Working on cards: ${[...new Set(cardIds(input))].join(', ')}; read data/big.txt ${before + seen} times.`,
        );
      }
      if (!card) {
        card = cardsIn(req)[0] ?? '';
        reads += 2;
        return toolCalls(
          ['reply', { to: card, text: 'On it: reading data/big.txt.' }],
          ['read_file', { path: 'data/big.txt' }],
          ['read_file', { path: 'data/big.txt' }],
        );
      }
      if (reads < READS) {
        reads += 2;
        return toolCalls(['read_file', { path: 'data/big.txt' }], ['read_file', { path: 'data/big.txt' }]);
      }
      if (!final.length) {
        final.push(req);
        // What this step can still see: the card it works for, from the input or the progress so far.
        const known = cardIds(
          req.messages
            .filter((m) => m.role !== 'system')
            .map((m) => m.content ?? '')
            .join('\n'),
        );
        return toolCalls([
          'report',
          { status: 'done', summary: `Read data/big.txt ${reads} times for ${known[0] ?? 'nobody'}.` },
        ]);
      }
      return text('Done.');
    });
    await send(w.app.ctx, localMessage('Please read the big data file forty times', { chat: 'room' }));
    const ticket = await waitFor(
      async () => (await listTickets(w.app.ctx)).find((t) => t.state === 'done'),
      'the ticket to be done',
      120_000,
    );

    // Every request the fake model received fit its window: none was refused.
    const executor = w.llm.requests.filter((r) => roleOf(r) === 'executor');
    for (const r of executor) expect(fakePromptTokens(r)).toBeLessThanOrEqual(WINDOW);
    // The last step saw the card (its work intact) and the newest read whole.
    const last = final[0] as RecordedRequest;
    const reports = await w.app.ctx.redis.lrange(w.app.ctx.keys.ticketReports(ticket.id), 0, -1);
    expect(reports.map((r) => JSON.parse(r))).toContainEqual(
      expect.objectContaining({ status: 'done', summary: `Read data/big.txt ${READS} times for ${card}.` }),
    );
    expect(last.messages.at(-1)?.content).toContain(BIG.slice(-2000));
    expect(last.messages.at(-1)?.content?.length).toBeGreaterThanOrEqual(BIG.length);
    expect(last.messages.some((m) => /^Progress so far/.test(m.content ?? ''))).toBe(true);
    const acks = (await botMessages(w.app.ctx, 'room')).filter((m) => m.op === 'local.reply');
    expect(acks.map((m) => m.text)).toContain('On it: reading data/big.txt.');

    // The transcript keeps every output whole (~2 MB) and records the compaction beside it.
    const t = await createTranscriptStore(w.app.ctx.redis, w.app.ctx.keys).load(`exec-${ticket.id}`);
    const outputs = t.messages.filter((m) => m.role === 'tool' && m.content.startsWith('line 0000'));
    expect(outputs).toHaveLength(READS);
    expect(outputs.reduce((a, m) => a + (m.content ?? '').length, 0)).toBeGreaterThanOrEqual(1_950_000);
    expect(t.context.compactions).toBeGreaterThanOrEqual(2);
    expect(t.context.summary).toContain(card);
    expect(w.llm.requests.filter(isSummary).length).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
