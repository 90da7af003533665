import { describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { savePolicy } from '../../../src/prompts/index.ts';
import { createRuntime } from '../../../src/runtime.ts';
import { createTicket, listTickets } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, cardsIn, continues, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, routedOf, send, ticketCardIds, ticketOpenedBy } from './helpers.ts';

describe('the main session (R-B1, R-B3, R-B8)', () => {
  const w = useModelApp();
  const mains = () => w.llm.requests.filter((r) => roleOf(r) === 'main');
  const toolResultsOf = (r: RecordedRequest) =>
    r.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');

  it('R-B1: five candidates arriving together are decided in one orchestrator_route call', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    // Issue 18: with a ticket open in the chat no request is opened by code; all five are candidates.
    const chat = `burst-${process.pid}-${Date.now()}`;
    await openTicketIn(w.app.ctx, chat);
    const ids = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        send(w.app.ctx, localMessage(`task number ${i}: rename module ${i}`, { chat })),
      ),
    );
    await waitFor(async () => {
      const routed = await Promise.all(ids.map((id) => routedOf(w.app.ctx, id)));
      return routed.every(Boolean) && mains().length >= 2;
    }, 'the main turn');
    const firstMain = mains()[0] as RecordedRequest;
    expect(cardsIn(firstMain).sort()).toEqual([...ids].sort());
    const routeCalls = mains()
      .flatMap((r) => r.messages.flatMap((m) => m.tool_calls ?? []))
      .filter((c) => c.function.name === 'orchestrator_route');
    expect(new Set(routeCalls.map((c) => c.id)).size).toBe(1);
    for (const id of ids) await ticketOpenedBy(w.app.ctx, id);
  });

  it('R-B2/R-B1/R-B3: a refused attach, a refused 31-word note and a refused sleep each return an error and change nothing', async () => {
    // A bot's card is ignored by routing, so only the card under test reaches the main session.
    const target = await createTicket(
      w.app.ctx,
      (await loadCard(
        w.app.ctx,
        await send(w.app.ctx, { ...localMessage('seed ticket'), author: { id: 'seed-bot', type: 'bot' } }),
      ))!,
      { why: 'test' },
    );
    let step = 0;
    const note31 = Array.from({ length: 31 }, (_, i) => `w${i}`).join(' ');
    w.llm.respond((req) => {
      if (roleOf(req) !== 'main') return text('ok');
      const cards = cardsIn(req);
      step++;
      const all = (d: object) => ({ decisions: cards.map((card) => ({ card, ...d })) });
      if (step === 1) return toolCalls(['orchestrator_route', all({ action: 'attach', ticket: target.id })]);
      if (step === 2) return toolCalls(['orchestrator_route', all({ action: 'open', note: note31 })]);
      if (step === 3) return toolCalls(['sleep', { seconds: 60 }]);
      if (step === 4) return toolCalls(['orchestrator_route', all({ action: 'ignore' })]);
      return text('done');
    });
    const before = (await listTickets(w.app.ctx)).length;
    expect(before).toBe(1);
    const card = await send(
      w.app.ctx,
      localMessage('the same login topic, no reference at all', { request: false }),
    );
    await waitFor(() => step >= 5, 'five main requests');
    const results = toolResultsOf(mains().at(-1) as RecordedRequest);
    expect(results[0]).toMatch(/^Error: refused.*no explicit reference to T\d+.*R-B2/s);
    expect(results[1]).toMatch(/^Error: refused.*31 words.*at most 30/s);
    expect(results[2]).toMatch(/^Error: refused: the main session never waits \(R-B3\)/);
    expect(results[3]).toContain(`${card}: ignored`);
    expect((await listTickets(w.app.ctx)).map((t) => t.id)).toEqual([target.id]);
    expect(await ticketCardIds(w.app.ctx, target.id)).toHaveLength(1);
  });

  it('R-B8: an inferred ticket opens only under a matching enabled rule, and its executor is restricted to it', async () => {
    const rt = await createRuntime(w.app.ctx);
    const saved = await savePolicy(
      rt.prompts,
      {
        baseRevision: 0,
        mode: 'inferred',
        rules: [
          {
            id: 'flaky-tests',
            name: 'Flaky tests',
            instruction: 'Quarantine a flaky test and link the failing run.',
            enabled: true,
          },
          { id: 'typos', name: 'Typos', instruction: 'Fix typos in docs.', enabled: false },
        ],
      },
      { source: 'api', who: 'test' },
    );
    expect(saved.ok).toBe(true);
    let step = 0;
    w.llm.respond((req) => {
      if (roleOf(req) === 'executor') return continues(req) ? text('ok') : ackAll(req);
      const card = cardsIn(req)[0] ?? '';
      step++;
      if (step === 1) return toolCalls(['orchestrator_route', { decisions: [{ card, action: 'open' }] }]);
      if (step === 2)
        return toolCalls(['orchestrator_route', { decisions: [{ card, action: 'open', rules: ['typos'] }] }]);
      if (step === 3)
        return toolCalls([
          'orchestrator_route',
          { decisions: [{ card, action: 'open', rules: ['flaky-tests'] }] },
        ]);
      return text('done');
    });
    await send(w.app.ctx, localMessage('test_checkout fails one run in five on main', { request: false }));
    const exec = await waitFor(
      () => w.llm.requests.find((r) => roleOf(r) === 'executor' && (r.system ?? '').includes('flaky-tests')),
      'the executor',
    );
    const results = toolResultsOf(mains().at(-1) as RecordedRequest);
    expect(results[0]).toMatch(/not an explicit request.*R-B8/);
    expect(results[1]).toMatch(/R-B8/);
    expect(results[2]).toMatch(/opened T\d+/);
    const system = exec.system ?? '';
    expect(system).toContain('Quarantine a flaky test and link the failing run.');
    expect(system.lastIndexOf('flaky-tests')).toBeGreaterThan(system.length - 1500);
    expect(system).not.toContain('Fix typos in docs.');
  });
});
