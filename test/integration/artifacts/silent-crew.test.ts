import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, lastToolResults, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, openTicketIn, send } from '../routing/helpers.ts';
import { type ArtifactWorld, startArtifactWorld, toolNames } from './harness.ts';

const QUIET = { 'crews/quiet.crew.md': '---\nname: quiet\nrole: worker\ntopology: silent\n---\n' };

describe('issue 15: a silent crew still asks people and reports done', () => {
  let w: ArtifactWorld;
  const requests: RecordedRequest[] = [];
  const results: string[][] = [];
  beforeEach(async () => {
    w = await startArtifactWorld(QUIET);
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-G4/R-C5: a silent crew has no agent communication, yet asks its question through report human_action (once) and reports done', async () => {
    const question = 'Should the export keep the old column order?';
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') {
        if (req.messages.at(-1)?.role === 'tool') return text('Routed.');
        const decisions = cardsIn(req).map((card) => ({ card, action: 'open', crew: 'quiet' }));
        return toolCalls(['orchestrator_route', { decisions }]);
      }
      requests.push(req);
      if (req.messages.at(-1)?.role === 'tool') results.push(lastToolResults(req));
      const to = cardsIn(req)[0];
      if (requests.length === 1)
        return toolCalls(
          ['reply', { to, text: 'I will reorder the export columns and open a PR.' }],
          [
            'report',
            { status: 'working', summary: 'Needs a decision.', human_action: { question, card: to } },
          ],
        );
      if (requests.length === 2) return toolCalls(['report', { status: 'done', summary: 'Nothing left.' }]);
      return text('Done.');
    });
    // Issue 18: a ticket open in the chat sends the request through the main session, which
    // names the crew (with none, code would open it).
    await openTicketIn(w.app.ctx, 'quiet-room');
    await send(w.app.ctx, localMessage('Please change the export columns', { chat: 'quiet-room' }));
    await waitFor(() => results.length >= 2, 'both reports', 15_000);
    const offered = toolNames(requests[0] as RecordedRequest);
    expect(offered).toContain('report');
    expect(offered).not.toContain('handback');
    expect(offered).not.toContain('message_peer');
    expect(results[0]?.[1]).toBe('recorded working; question posted');
    expect(results[1]?.[0]).toBe('recorded done');
    const asked = await waitFor(
      async () => (await botMessages(w.app.ctx, 'quiet-room')).filter((m) => m.text === question),
      'the question',
    );
    expect(asked).toHaveLength(1);
  });
});
