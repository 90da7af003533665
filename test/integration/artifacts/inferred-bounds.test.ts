import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { savePolicy } from '../../../src/prompts/index.ts';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, continues, isHostNote, roleOf, ticketOf } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, send } from '../routing/helpers.ts';
import { type ArtifactWorld, startArtifactWorld, toolNames } from './harness.ts';

const WRITING = ['write_file', 'edit_file', 'commit_and_push', 'open_pr'];

describe('a ticket nobody asked for is bounded in code (R-B8, R-G4)', () => {
  let w: ArtifactWorld;
  const byTicket = new Map<string, RecordedRequest[]>();
  let open: { rules: string[]; crew?: string } = { rules: [] };

  beforeEach(async () => {
    byTicket.clear();
    w = await startArtifactWorld();
    await openTicketIn(w.app.ctx); // every message of the chat goes through the main session
    const saved = await savePolicy(
      w.rt.prompts,
      {
        baseRevision: 0,
        mode: 'inferred',
        rules: [
          {
            id: 'tidy',
            name: 'Tidy',
            instruction: 'Tidy the docs.',
            enabled: true,
            profile: 'reviewer',
            maxRequests: 3,
          },
          { id: 'bump', name: 'Bump', instruction: 'Bump a dependency.', enabled: true },
          { id: 'deps', name: 'Deps', instruction: 'Bump and propose.', enabled: true, openPr: true },
        ],
      },
      { source: 'api', who: 'test' },
    );
    expect(saved.ok).toBe(true);
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') {
        if (continues(req) || !cardsIn(req).length) return text('Routed.');
        const decisions = cardsIn(req).map((card) => ({ card, action: 'open', ...open }));
        return toolCalls(['orchestrator_route', { decisions }]);
      }
      if (isHostNote(req.messages.at(-1))) return text('Noted.');
      const ticket = ticketOf(req) ?? '?';
      const list = byTicket.get(ticket) ?? [];
      list.push(req);
      byTicket.set(ticket, list);
      const card = cardsIn(req)[0] ?? '';
      // Working, then reading for ever: only the turn's budget ends it.
      if (list.length === 1)
        return toolCalls(
          ['reply', { to: card, text: `Looking at ${card}.` }],
          ['report', { status: 'working', summary: 'Tidying.' }],
        );
      return toolCalls(['read_card', { card }]);
    });
  });
  afterEach(async () => {
    await w.close();
  });

  /** Opens one inferred ticket under `rules`; its id. */
  async function inferred(words: string, how: typeof open): Promise<string> {
    open = how;
    const before = new Set(byTicket.keys());
    await send(w.app.ctx, localMessage(words, { request: false }));
    return waitFor(() => [...byTicket.keys()].find((k) => !before.has(k)), `${words}: its executor`);
  }

  it('F-12: the rule’s crew and profile whatever routing names, and a turn budget of its own with no fresh turn after it', async () => {
    const id = await inferred('the docs have stale links', { rules: ['tidy'], crew: 'review' });
    const first = byTicket.get(id)?.[0] as RecordedRequest;
    for (const t of WRITING) expect(toolNames(first)).not.toContain(t);
    await waitFor(() => (byTicket.get(id)?.length ?? 0) >= 3, 'three requests');
    await new Promise((r) => setTimeout(r, 1500));
    // The rule's three requests, not EXECUTOR_MAX_REQUESTS (40), and no continuation after them.
    expect(byTicket.get(id)?.length).toBe(3);
    expect((await getTicket(w.app.ctx, id))?.crew).toMatchObject({ name: 'default', profile: 'reviewer' });
  });

  it('F-12: open_pr only where a matched rule names it', async () => {
    const bump = await inferred('lodash has a new patch release', { rules: ['bump'] });
    const deps = await inferred('axios has a new patch release', { rules: ['deps'] });
    const offered = (id: string) => toolNames(byTicket.get(id)?.[0] as RecordedRequest);
    expect(offered(bump)).toEqual(expect.arrayContaining(['write_file', 'commit_and_push']));
    expect(offered(bump)).not.toContain('open_pr');
    expect(offered(deps)).toEqual(expect.arrayContaining(['write_file', 'commit_and_push', 'open_pr']));
  });
});
