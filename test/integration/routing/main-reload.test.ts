import { describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { cardsIn, lastToolResults, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, send } from './helpers.ts';

const revisionIn = (answer: string): number => (JSON.parse(answer) as { revision: number }).revision;

describe('reading never writes (R-G5)', () => {
  const w = useModelApp();

  it('R-G5: orchestrator_read refuses "reload" and leaves the registry revision where it was; orchestrator_reload moves it', async () => {
    const results: string[][] = [];
    w.llm.respond((req: RecordedRequest) => {
      if (roleOf(req) !== 'main') return text('ok');
      const step = req.messages.filter((m) => m.role === 'tool').length;
      if (step) results.push(lastToolResults(req));
      if (step === 0)
        return toolCalls(
          ['orchestrator_read', { what: 'artifacts' }],
          ['orchestrator_read', { what: 'reload' }],
          ['orchestrator_read', { what: 'artifacts' }],
        );
      if (step === 3)
        return toolCalls(['orchestrator_reload', {}], ['orchestrator_read', { what: 'artifacts' }]);
      return toolCalls([
        'orchestrator_route',
        { decisions: cardsIn(req).map((card) => ({ card, action: 'ignore' })) },
      ]);
    });
    await openTicketIn(w.app.ctx);
    await send(w.app.ctx, localMessage('what is the weather like?', { request: false }));
    await waitFor(() => results.length >= 2, 'the main turn’s reads and its reload');

    const [before, refused, after] = results[0] as string[];
    expect(refused).toMatch(/^Error: invalid arguments for orchestrator_read, nothing was done:/);
    expect(revisionIn(after as string)).toBe(revisionIn(before as string));
    const [reloaded, latest] = results[1] as string[];
    expect(JSON.parse(reloaded as string)).toEqual({
      revision: revisionIn(before as string) + 1,
      problems: [],
    });
    expect(revisionIn(latest as string)).toBe(revisionIn(before as string) + 1);
  });
});
