import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ticketTrajectory } from '../../../src/web/api/ticket-trajectory.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { lastToolResults } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { executorRequests, startWorld, type World } from './harness.ts';

/**
 * Issue 28 "no silent stop": an answer without a tool call ends the turn, so "Next I'll run the
 * tests." used to leave acknowledged work half done until the stall watchdog asked a person. Now
 * the host answers such an ending with a note naming what is unreported, twice at most a turn.
 */
describe('no silent stop (issue 28)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  const ack = (_r: RecordedRequest, card: string) => toolCalls(['reply', { to: card, text: 'On it.' }]);

  it('issue 28: "narrates and stops" — after an acknowledged request and an edit left uncommitted, the ending gets a note naming both, and the model recovers within 2 steps', async () => {
    const seen = executorRequests(
      w.llm,
      [
        ack,
        () => toolCalls(['write_file', { path: 'src/redirect.ts', content: 'export const home = "/";\n' }]),
        () => text('Next I will run the tests.'),
        () => toolCalls(['commit_and_push', { message: 'Fix next' }]),
        () => toolCalls(['report', { status: 'working', summary: 'Committed; tests next turn.' }]),
        () => text('Reported.'),
      ],
      text('Nothing more.'),
    );
    const card = await send(w.app.ctx, localMessage('Please fix the login redirect of acme/web'));
    await waitFor(() => seen.length >= 6, 'the recovered turn', 30_000);
    const note = seen[3]?.messages.at(-1);
    expect(note?.role).toBe('user');
    expect(note?.content).toMatch(/^\[host\] You ended your answer without a tool call/);
    expect(note?.content).toContain('you acknowledged a request and sent no `report`');
    expect(note?.content).toContain('the checkout holds uncommitted changes (src/redirect.ts)');
    expect(lastToolResults(seen[4] as RecordedRequest).join()).toMatch(/committed [0-9a-f]{12} and pushed/);
    expect(lastToolResults(seen[5] as RecordedRequest).join()).toContain('recorded working');
    // Recovered: two steps after the note, then the turn ended without another note.
    await new Promise((r) => setTimeout(r, 500));
    expect(seen).toHaveLength(6);
    const notes = seen.flatMap((r) => r.messages).filter((m) => m.content?.startsWith('[host]'));
    expect(new Set(notes.map((m) => m.content)).size).toBe(1);
    // The note is a step of the ticket's trajectory.
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    const steps = await ticketTrajectory(w.app.ctx, ticket);
    expect(steps.filter((s) => s.kind === 'note').map((s) => (s.kind === 'note' ? s.note : ''))).toEqual([
      'unfinished',
    ]);
  });

  it('issue 28: a model that keeps narrating gets two notes, then the turn ends (the budget counts each)', async () => {
    const seen = executorRequests(w.llm, [ack, () => text('I will look into it.')]);
    await send(w.app.ctx, localMessage('Please look at the login of acme/web'));
    await waitFor(() => seen.length >= 4, 'two notes', 30_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(seen).toHaveLength(4);
    expect(seen.filter((r) => r.messages.at(-1)?.content?.startsWith('[host]'))).toHaveLength(2);
  });

  it('issue 28: a turn that reported, or only answered a question, ends at once', async () => {
    const seen = executorRequests(
      w.llm,
      [
        (_r, card) =>
          toolCalls(['reply', { to: card, purpose: 'answer', text: 'The login redirects to /.' }]),
        () => text('Answered.'),
      ],
      text('Nothing more.'),
    );
    await send(w.app.ctx, localMessage('What does the login of acme/web redirect to?'));
    await waitFor(() => seen.length >= 2, 'the answer', 30_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(seen).toHaveLength(2);
  });
});
