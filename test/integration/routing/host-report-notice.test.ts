import { describe, expect, it } from 'vitest';
import { reportsOf } from '../../../src/tickets/reports.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, cardsIn, continues, inputOf, openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketOpenedBy } from './helpers.ts';

/**
 * Issue 30 item 1 ("不等待", R-B6): a report the host writes for an executor — its turn stopped
 * for a budget, a stall the watchdog found — reaches the main session by itself, like the
 * executor's own: a main turn with no candidate opens with it, and nothing else had to arrive.
 */
const mainTurnsWithReports = (requests: RecordedRequest[]) =>
  requests.filter(
    (r) => roleOf(r) === 'main' && !continues(r) && inputOf(r).includes('Reports from executors'),
  );

describe('a host report reaches the main session by itself (issue 30)', () => {
  describe('a turn out of budget', () => {
    const w = useModelApp({ EXECUTOR_MAX_REQUESTS: '3' });

    it('issue 30, R-B6: the executor runs out of requests without reporting → the main session reads the host’s report in a turn of its own', async () => {
      w.llm.respond((req) => {
        if (roleOf(req) === 'main') return continues(req) ? text('Noted.') : openAll(req);
        // Acknowledges, then reads forever and never reports: the request budget runs out.
        return continues(req) ? toolCalls(['read_card', { card: cardsIn(req)[0] }]) : ackAll(req);
      });
      const card = await send(w.app.ctx, localMessage('Please rename the billing module'));
      const ticket = await ticketOpenedBy(w.app.ctx, card);
      const turn = await waitFor(
        () => mainTurnsWithReports(w.llm.requests)[0],
        'the main turn the host report started',
        20_000,
      );
      const input = inputOf(turn);
      expect(input).toMatch(/^No candidate waits\./);
      expect(input).toMatch(
        new RegExp(
          `\\n- ${ticket} blocked \\(host: the turn stopped, out of budget\\) \\(asked people a question\\): the model_requests budget ran out`,
        ),
      );
      expect(cardsIn(turn)).toEqual([]);
      expect((await reportsOf(w.app.ctx, ticket)).at(-1)).toMatchObject({ status: 'blocked' });
    });
  });

  describe('a stall', () => {
    const w = useModelApp({ STALL_AFTER_MS: '400', WATCHDOG_INTERVAL_MS: '100' });

    it('issue 30, R-B6: the watchdog marks a quiet ticket stalled → the main session reads it in a turn of its own', async () => {
      w.llm.respond((req) => {
        if (roleOf(req) === 'main') return continues(req) ? text('Noted.') : openAll(req);
        // Acknowledges and goes quiet: no report, no further step.
        return continues(req) ? text('Working on it in the background.') : ackAll(req);
      });
      const card = await send(w.app.ctx, localMessage('please migrate the database', { chat: 'quiet' }));
      const ticket = await ticketOpenedBy(w.app.ctx, card);
      const turn = await waitFor(
        () => mainTurnsWithReports(w.llm.requests)[0],
        'the main turn the stall started',
        20_000,
      );
      const input = inputOf(turn);
      expect(input).toMatch(/^No candidate waits\./);
      expect(input).toMatch(
        new RegExp(
          `\\n- ${ticket} blocked \\(host: stalled\\) \\(asked people a question\\): ${ticket} has stalled: after acknowledging, its executor took no step for`,
        ),
      );
      expect(cardsIn(turn)).toEqual([]);
    });
  });
});
