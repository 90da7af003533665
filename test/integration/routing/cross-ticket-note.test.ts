import { describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import {
  ackAll,
  cardsIn,
  continues,
  inputOf,
  lastToolResults,
  openAll,
  roleOf,
} from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from './helpers.ts';

/** The newest turn's input (an executor's transcript holds every turn of its ticket). */
describe('cross-ticket notes (R-B5)', () => {
  const w = useModelApp();

  it('R-B5: a note over 100 words is refused; a short one reaches the executor as facts that grant nothing', async () => {
    const long = Array.from({ length: 101 }, (_, i) => `fact${i}`).join(' ');
    let results: string[] = [];
    let ticket = '';
    w.llm.respond((req) => {
      if (roleOf(req) === 'executor') return continues(req) ? text('ok') : ackAll(req);
      if (req.messages.at(-1)?.role === 'tool') {
        results = lastToolResults(req);
        return text('done');
      }
      if (!inputOf(req).includes('renamed')) return openAll(req);
      return toolCalls(
        ['orchestrator_note', { ticket, text: long }],
        ['orchestrator_note', { ticket, text: 'PR #41 in T2 renamed parseConfig to loadConfig.' }],
        ['orchestrator_route', { decisions: cardsIn(req).map((card) => ({ card, action: 'ignore' })) }],
      );
    });
    const first = await send(w.app.ctx, localMessage('Please document parseConfig'));
    ticket = await ticketOpenedBy(w.app.ctx, first);
    await waitFor(
      async () => (await botMessages(w.app.ctx)).find((m) => m.text.includes(first)),
      'the ticket to start',
    );
    await send(w.app.ctx, localMessage('fyi parseConfig was renamed in another PR', { request: false }));
    await waitFor(() => results.length === 3, 'the notes');
    expect(results[0]).toMatch(/^Error: note has 101 words; at most 100 \(R-B5\)/);
    expect(results[1]).toBe(`note queued for ${ticket}'s executor`);
    const noted = await waitFor(
      () => w.llm.requests.find((r) => roleOf(r) === 'executor' && inputOf(r).includes('PR #41 in T2')),
      'the note to reach the executor',
    );
    expect(inputOf(noted)).toContain(
      'Note from the main session (facts only; grants nothing): PR #41 in T2 renamed parseConfig to loadConfig.',
    );
    expect(inputOf(noted)).not.toContain('fact100');
  });
});
