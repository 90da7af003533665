import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import type { Ctx } from '../../../src/context.ts';
import { usingCheckout } from '../../../src/executor/workspace/checkout-use.ts';
import { mirrorDir, mirrorLocal } from '../../../src/executor/workspace/mirror.ts';
import { writeStepMarker } from '../../../src/executor/workspace/step-marker.ts';
import { sweepCheckouts } from '../../../src/executor/workspace/sweep-checkouts.ts';
import { workspacePaths } from '../../../src/executor/workspace/workspace.ts';
import { saveWorkspace } from '../../../src/executor/workspace/workspace-record.ts';
import { saveWorkspaceStep } from '../../../src/executor/workspace/workspace-step-record.ts';
import { createTicket, setTicketState } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, isHostNote, lastToolResults, openAll, roleOf, ticketOf } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { startWorld, type World } from './harness.ts';

const stepOf = (req: RecordedRequest) =>
  req.messages.length - 1 - req.messages.findLastIndex((m) => m.role === 'user' && !isHostNote(m));

/** A ticket with a checkout on this machine's disk, recorded as made here (or at `elsewhere`). */
async function ticketWithCheckout(ctx: Ctx, what: string, elsewhere?: string) {
  const cardId = await send(ctx, localMessage(what));
  const ticket = await createTicket(ctx, (await loadCard(ctx, cardId))!, { why: 'explicit request' });
  const paths = workspacePaths(ctx, ticket.id);
  mkdirSync(join(paths.dir, '.git'), { recursive: true });
  writeFileSync(join(paths.dir, 'README.md'), '# web\n');
  mkdirSync(paths.home, { recursive: true });
  await saveWorkspace(ctx, ticket.id, {
    repo: 'acme/web',
    cloneUrl: 'file:///nowhere.git',
    dir: elsewhere ?? paths.dir,
    home: paths.home,
    branch: `sy/${ticket.id}`,
    base: 'main',
  });
  return { id: ticket.id, dir: paths.dir, home: paths.home };
}

/** Private refs of the tickets in the host's mirror of acme/web. */
async function mirrorRefs(ctx: Ctx): Promise<string> {
  return mirrorLocal(ctx, 'acme/web', ['for-each-ref', '--format=%(refname)', 'refs/sy/']);
}

/** A commit in the mirror of acme/web under the ticket's private refs, as a step and a push leave them. */
async function withMirrorRefs(ctx: Ctx, ticketId: string) {
  const dir = mirrorDir(ctx, 'acme/web');
  await mirrorLocal(ctx, 'acme/web', ['rev-parse', '--git-dir']);
  const env = {
    ...process.env,
    GIT_DIR: dir,
    GIT_AUTHOR_NAME: 'a',
    GIT_AUTHOR_EMAIL: 'a@x',
    GIT_COMMITTER_NAME: 'a',
    GIT_COMMITTER_EMAIL: 'a@x',
  };
  const tree = execFileSync('git', ['mktree'], { env, input: '' }).toString().trim();
  const sha = execFileSync('git', ['commit-tree', tree, '-m', 'wip'], { env }).toString().trim();
  for (const ref of [`refs/sy/wip/${ticketId}`, `refs/sy/tickets/${ticketId}`])
    execFileSync('git', ['update-ref', ref, sha], { env });
}

describe('issue 19: the workspace sweep removes checkouts no turn needs from this worker’s disk', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld({ WORKSPACE_SWEEP_GRACE_MS: '60000' }, { workers: false });
  });
  afterEach(async () => {
    await w.close();
  });

  it('issue 19: closed, purged and stale checkouts go after the grace period, with their homes and the closed tickets’ mirror refs; the current checkout of an open ticket stays', async () => {
    const ctx = w.app.ctx;
    const open = await ticketWithCheckout(ctx, 'Please add a health check');
    const closed = await ticketWithCheckout(ctx, 'Please fix the footer');
    const moved = await ticketWithCheckout(ctx, 'Please rename the module', '/elsewhere/ws/T1');
    const behind = await ticketWithCheckout(ctx, 'Please update the docs');
    await setTicketState(ctx, closed.id, 'done');
    // Another worker recorded a step this copy never saw.
    await writeStepMarker(ctx, behind.id, 'step-seen-here');
    const step = { id: 'step-recorded-elsewhere', step: 'k', head: 'h', headRef: '', at: 1 };
    await saveWorkspaceStep(ctx, behind.id, step, Buffer.from('bundle'));
    // A ticket purged at retention: no record at all.
    const purged = workspacePaths(ctx, 'T900001');
    mkdirSync(join(purged.dir, '.git'), { recursive: true });
    const leftover = `${open.dir}.clone-0a1b2c3d`;
    mkdirSync(leftover);
    await withMirrorRefs(ctx, closed.id);
    await withMirrorRefs(ctx, open.id);

    // Touched a moment ago: no checkout goes yet; the closed ticket's private refs do.
    const first = await sweepCheckouts(ctx);
    expect(first.removed).toEqual([]);
    expect(existsSync(closed.dir)).toBe(true);
    expect(first.refs).toEqual([closed.id]);
    const refs = await mirrorRefs(ctx);
    expect(refs).not.toContain(closed.id);
    expect(refs).toContain(`refs/sy/wip/${open.id}`);
    expect(refs).toContain(`refs/sy/tickets/${open.id}`);

    const later = Date.now() + 120_000;
    ctx.now = () => later;
    const swept = await sweepCheckouts(ctx);
    expect(swept.removed).toEqual(
      expect.arrayContaining([
        { ticketId: closed.id, why: 'closed' },
        { ticketId: moved.id, why: 'stale' },
        { ticketId: behind.id, why: 'stale' },
        { ticketId: 'T900001', why: 'gone' },
      ]),
    );
    expect(swept.removed).toHaveLength(4);
    for (const gone of [closed, moved, behind]) {
      expect(existsSync(gone.dir), gone.id).toBe(false);
      expect(existsSync(gone.home), gone.id).toBe(false);
    }
    expect(existsSync(purged.dir)).toBe(false);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(join(open.dir, 'README.md'))).toBe(true);
    expect(swept.refs).toEqual([]);
    expect(await mirrorRefs(ctx)).toContain(`refs/sy/wip/${open.id}`);
  });

  it('issue 19: a checkout held by a turn in this process is never removed', async () => {
    const ctx = w.app.ctx;
    const t = await ticketWithCheckout(ctx, 'Please fix the footer');
    await setTicketState(ctx, t.id, 'cancelled');
    const later = Date.now() + 120_000;
    ctx.now = () => later;
    await usingCheckout(t.dir, async () => {
      expect((await sweepCheckouts(ctx)).removed).toEqual([]);
      expect(existsSync(join(t.dir, 'README.md'))).toBe(true);
    });
    // Let go (and the grace long past): the next sweep removes it.
    expect((await sweepCheckouts(ctx)).removed).toEqual([{ ticketId: t.id, why: 'closed' }]);
    expect(existsSync(t.dir)).toBe(false);
  });
});

describe('issue 19: a real turn holds its checkout against this worker’s sweep', () => {
  let w: World;
  let ticket: string;
  let release: () => void;
  let reads: string[];

  beforeEach(async () => {
    ticket = '';
    reads = [];
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    w = await startWorld({ WORKSPACE_SWEEP_GRACE_MS: '0' });
    w.llm.respond(async (req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      ticket ||= ticketOf(req) ?? '';
      const n = stepOf(req) / 2;
      const card = cardsIn(req)[0] ?? '';
      if (n === 0) return toolCalls(['reply', { to: card, text: `Writing the docs for ${card}.` }]);
      if (n === 1) return toolCalls(['write_file', { path: 'docs/new.md', content: 'brand new\n' }]);
      if (n === 2) {
        await held;
        return toolCalls(['read_file', { path: 'docs/new.md' }]);
      }
      reads.push(...lastToolResults(req));
      return text('Done.');
    });
  });
  afterEach(async () => {
    release();
    await w.close();
  });

  it('issue 19: the ticket closed mid-turn, the sweep leaves the checkout the turn is using; the closed ticket’s checkout and mirror refs go when the turn ends', async () => {
    const ctx = w.app.ctx;
    await send(ctx, localMessage('Please write the docs for the web app', { chat: 'room' }));
    await waitFor(
      () => w.llm.requests.filter((r) => roleOf(r) === 'executor').length >= 3,
      'the turn past its write_file',
      30_000,
    );
    const dir = workspacePaths(ctx, ticket).dir;
    expect(existsSync(join(dir, 'docs/new.md'))).toBe(true);
    // Issue 45: a step no longer leaves its work in the mirror; refs a push (or an older release's
    // steps) left there go with the closed ticket.
    expect(await mirrorRefs(ctx)).not.toContain(ticket);
    await withMirrorRefs(ctx, ticket);
    await setTicketState(ctx, ticket, 'done');
    const swept = await sweepCheckouts(ctx);
    expect(swept.removed).toEqual([]);
    expect(swept.refs).toEqual([]);
    expect(existsSync(join(dir, 'docs/new.md'))).toBe(true);
    release();
    await waitFor(() => reads.length > 0, 'the read after the sweep', 30_000);
    expect(reads[0]).toBe('     1\tbrand new\n(line 1 of 1)');
    await waitFor(
      async () => (await ctx.queues.executor.getJobs(['completed'])).length === 1,
      'the turn’s end',
      30_000,
    );
    // The closing turn released its own checkout; the sweep takes the mirror's refs.
    expect(existsSync(dir)).toBe(false);
    expect((await sweepCheckouts(ctx)).refs).toEqual([ticket]);
    expect(await mirrorRefs(ctx)).not.toContain(ticket);
  });
});
