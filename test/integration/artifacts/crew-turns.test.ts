import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleTurn } from '../../../src/executor/schedule-turn.ts';
import { savePolicy } from '../../../src/prompts/index.ts';
import { reloadTool } from '../../../src/router/main/reload-tool.ts';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, isHostNote, lastToolResults, roleOf, ticketOf } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, send } from '../routing/helpers.ts';
import { type ArtifactWorld, callCtx, startArtifactWorld, toolNames } from './harness.ts';

const LENIENT = {
  'roles/lenient-reviewer.role.md':
    '---\nname: lenient-reviewer\nprofile: reviewer\n---\nYou may push and open PRs whenever you think it helps.\n',
  'crews/lenient-review.crew.md': '---\nname: lenient-review\nrole: lenient-reviewer\ntopology: hub\n---\n',
  'crews/pair.crew.md': '---\nname: pair\nrole: worker\ntopology: mesh\n---\n',
};
const WRITE_TOOLS = [
  'write_file',
  'edit_file',
  'commit_and_push',
  'open_pr',
  'mark_pr_ready',
  'close_pr',
  'resolve_review_thread',
];

describe('crews in executor turns (R-G4, R-G5)', () => {
  let w: ArtifactWorld;
  /** Executor requests by ticket, in order. */
  const byTicket = new Map<string, RecordedRequest[]>();
  let crewToOpen: string | undefined;
  let rulesToOpen: string[] | undefined;
  let executor: (
    req: RecordedRequest,
    ticket: string,
    n: number,
  ) => ReturnType<typeof text> | Promise<ReturnType<typeof text>>;

  beforeEach(async () => {
    // Each test has its own prefix, so its ticket ids start again at T1 (issue 20): its own map.
    byTicket.clear();
    crewToOpen = undefined;
    rulesToOpen = undefined;
    w = await startArtifactWorld(LENIENT);
    // Issue 18: a ticket open in the chat sends every request here through the main session, which
    // names the crew (with none, code would open them with the default crew).
    await openTicketIn(w.app.ctx);
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') {
        if (req.messages.at(-1)?.role === 'tool') return text('Routed.');
        const decisions = cardsIn(req).map((card) => ({
          card,
          action: 'open',
          ...(crewToOpen ? { crew: crewToOpen } : {}),
          ...(rulesToOpen ? { rules: rulesToOpen } : {}),
        }));
        return toolCalls(['orchestrator_route', { decisions }]);
      }
      // Issue 28: the host's notes to a turn that acknowledged and ended without a report are not
      // what these tests are about; they are answered and left out of each ticket's requests.
      if (isHostNote(req.messages.at(-1))) return text('Noted.');
      const ticket = ticketOf(req) ?? '?';
      const list = byTicket.get(ticket) ?? [];
      list.push(req);
      byTicket.set(ticket, list);
      return executor(req, ticket, list.length);
    });
  });
  afterEach(async () => {
    await w.close();
  });

  const ack = (req: RecordedRequest) =>
    ['reply', { to: cardsIn(req)[0], text: `Looking at ${cardsIn(req)[0]} now.` }] as [string, unknown];

  it('R-G4: a reviewer whose role says "you may push" is offered no write tool, and a forged write_file is refused', async () => {
    crewToOpen = 'lenient-review';
    executor = (req, _t, n) =>
      n === 1 ? toolCalls(ack(req), ['write_file', { path: 'pwned.txt', content: 'x' }]) : text('Done.');
    await send(w.app.ctx, localMessage('Please review the login change'));
    const [first, second] = await waitFor(
      () => {
        const reqs = [...byTicket.values()].find((l) => l.length >= 2);
        return reqs;
      },
      'two executor requests',
      15_000,
    );
    expect(first?.system).toContain('## Role: lenient-reviewer\n\nYou may push and open PRs');
    const offered = toolNames(first as RecordedRequest);
    expect(offered).toEqual(expect.arrayContaining(['reply', 'report', 'read_file', 'run_command']));
    for (const t of [...WRITE_TOOLS, 'message_peer']) expect(offered).not.toContain(t);
    const results = lastToolResults(second as RecordedRequest);
    expect(results[1]).toMatch(/^Error: unknown tool "write_file"; the tools are: reply, /);
    const ticketId = ticketOf(first as RecordedRequest) ?? '';
    // No checkout was made: start-up makes the deployment's folder, 0700 (issue 45), and nothing
    // else lands under it.
    const under = join(w.bundled, 'workspaces');
    const files = existsSync(under)
      ? readdirSync(under, { recursive: true, withFileTypes: true }).filter((d) => !d.isDirectory())
      : [];
    expect(files.map((d) => d.name)).toEqual([]);
    expect((await getTicket(w.app.ctx, ticketId))?.crew).toMatchObject({
      name: 'lenient-review',
      from: 'routing',
      role: 'lenient-reviewer',
      profile: 'reviewer',
      topology: 'hub',
    });
  });

  it('R-G5: a reload during a running turn leaves that turn’s prompt unchanged and changes the next turn’s', async () => {
    crewToOpen = undefined;
    w.writeBundled('roles/worker.role.md', '---\nname: worker\nprofile: worker\n---\nROLE-V1 persona.\n');
    await w.rt.artifacts.reload();
    let reloaded: unknown;
    executor = async (req, _t, n) => {
      if (n === 1) {
        w.writeBundled('roles/worker.role.md', '---\nname: worker\nprofile: worker\n---\nROLE-V2 persona.\n');
        reloaded = JSON.parse(((await reloadTool(w.rt).run({}, callCtx)) as { content: string }).content);
        return toolCalls(ack(req));
      }
      return text('Done.');
    };
    const before = new Set(byTicket.keys());
    await send(w.app.ctx, localMessage('Please tidy the README'));
    const id = await waitFor(
      () => [...byTicket.keys()].find((k) => !before.has(k) && (byTicket.get(k)?.length ?? 0) >= 2),
      'the first turn',
    );
    const [r1, r2] = byTicket.get(id) ?? [];
    expect(reloaded).toMatchObject({ revision: 2, problems: [] });
    expect(r1?.system).toContain('ROLE-V1 persona.');
    expect(r2?.system).toContain('ROLE-V1 persona.');
    expect(r2?.system).not.toContain('ROLE-V2');
    await waitFor(async () => !(await w.app.ctx.redis.exists(w.app.ctx.keys.turnLock(id))), 'turn end');
    const ctx = w.app.ctx;
    await ctx.redis.rpush(
      ctx.keys.ticketNotes(id),
      JSON.stringify({ from: 'main', text: 'One more thing.', at: ctx.now() }),
    );
    await scheduleTurn(ctx, id);
    const r3 = await waitFor(() => byTicket.get(id)?.[2], 'the next turn');
    expect(r3.system).toContain('ROLE-V2 persona.');
    expect(r3.system).not.toContain('ROLE-V1');
    expect((await getTicket(ctx, id))?.crew).toMatchObject({ name: 'default', from: 'default', revision: 2 });
  });

  it('R-G4: executors of a mesh crew can message each other; the note reaches the peer as facts', async () => {
    crewToOpen = 'pair';
    const before = new Set(byTicket.keys());
    let peerResult = '';
    let first = '';
    executor = (req, ticket, n) => {
      expect(toolNames(req)).toContain('message_peer');
      if (n === 1 && !first) first = ticket;
      if (n === 1 && ticket === first) return toolCalls(ack(req));
      if (n === 1)
        return toolCalls(ack(req), [
          'message_peer',
          { ticket: first, text: 'I renamed login() to signIn().' },
        ]);
      if (ticket !== first && n === 2) peerResult = lastToolResults(req)[1] ?? '';
      return text('Done.');
    };
    await send(w.app.ctx, localMessage('Please rename the login helper'));
    await waitFor(() => first && (byTicket.get(first)?.length ?? 0) >= 2, 'the first pair ticket');
    await waitFor(
      async () => !(await w.app.ctx.redis.exists(w.app.ctx.keys.turnLock(first))),
      'its turn end',
    );
    await send(w.app.ctx, localMessage('Please update the callers of the login helper'));
    await waitFor(() => peerResult, 'the peer message result');
    expect(peerResult).toBe(`message queued for ${first}`);
    const woke = await waitFor(() => byTicket.get(first)?.[2], 'the peer woken by the message');
    const input = woke.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    expect(input).toMatch(/executor \(a peer of your crew\): I renamed login\(\) to signIn\(\)\./);
    expect(before.has(first)).toBe(false);
  });

  it('R-G4: a ticket inferred under a policy rule that names a crew runs that crew, read-only for an explorer', async () => {
    const saved = await savePolicy(
      w.rt.prompts,
      {
        baseRevision: 0,
        mode: 'inferred',
        rules: [
          {
            id: 'questions',
            name: 'Questions',
            instruction: 'Answer code questions.',
            enabled: true,
            crew: 'explore',
          },
        ],
      },
      { source: 'api', who: 'test' },
    );
    expect(saved.ok).toBe(true);
    crewToOpen = undefined;
    rulesToOpen = ['questions'];
    executor = () => text('Nothing to do.');
    const before = new Set(byTicket.keys());
    await send(w.app.ctx, localMessage('where is the retry policy defined?', { request: false }));
    const id = await waitFor(() => [...byTicket.keys()].find((k) => !before.has(k)), 'the explorer turn');
    const offered = toolNames(byTicket.get(id)?.[0] as RecordedRequest);
    expect(offered).toEqual([
      'reply',
      'report',
      'handback',
      'orchestrator_thread_unrelated',
      'read_card',
      'read_github',
      'read_chat',
      'read_prompt_revision',
      'list_files',
      'read_file',
      'search_files',
    ]);
    expect((await getTicket(w.app.ctx, id))?.crew).toMatchObject({
      name: 'explore',
      from: 'policy',
      profile: 'explorer',
    });
    rulesToOpen = undefined;
  });
});
