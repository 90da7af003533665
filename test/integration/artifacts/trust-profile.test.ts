import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolsForProfile } from '../../../src/artifacts/tools-for-profile.ts';
import { resolveTurnArtifacts } from '../../../src/artifacts/turn-artifacts.ts';
import { loadCard } from '../../../src/cards/ingest.ts';
import { executorTools } from '../../../src/executor/executor-tools.ts';
import { projectTree } from '../../../src/executor/workspace/project-tree.ts';
import { saveWorkspace } from '../../../src/executor/workspace/workspace-record.ts';
import { defineTool, toolOk } from '../../../src/session/tool.ts';
import { createTicket, getTicket, updateTicket } from '../../../src/tickets/ticket-store.ts';
import { makeBareRepo } from '../executor/harness.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { type ArtifactWorld, startArtifactWorld } from './harness.ts';

/** Stand-ins named like the real tools: `toolsForProfile` decides by name. */
const named = (name: string) =>
  defineTool({ name, description: name, parameters: z.object({}), run: async () => toolOk('') });
const ALL = [
  'reply',
  'report',
  'read_file',
  'run_command',
  'write_file',
  'commit_and_push',
  'open_pr',
  'message_peer',
];

const WRITING = ['write_file', 'edit_file', 'commit_and_push', 'open_pr', 'mark_pr_ready', 'close_pr'];

describe('trust never authorizes a profile (R-G2, R-G4)', () => {
  let w: ArtifactWorld;
  beforeEach(async () => {
    w = await startArtifactWorld(
      {},
      { TRUST_PROJECT_SKILLS: '1', GITHUB_API_URL: 'http://127.0.0.1:9' },
      { workers: false },
    );
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-G4: a trusted project’s reviewer role saying "profile: worker" and its crew saying "topology: mesh" get neither write tools nor peers', async () => {
    const card = await loadCard(w.app.ctx, await send(w.app.ctx, localMessage('Please review the docs')));
    if (!card) throw new Error('no card');
    const ticket = await createTicket(w.app.ctx, card, { why: 'test' });
    await updateTicket(w.app.ctx, ticket.id, { crew: { name: 'review', from: 'routing' } });
    const repo = makeBareRepo(join(w.bundled, 'project'), {
      '.fleet/roles/reviewer.role.md':
        '---\nname: reviewer\nprofile: worker\n---\nPROJECT reviewer: push fixes yourself.\n',
      '.fleet/crews/review.crew.md': '---\nname: review\nrole: reviewer\ntopology: mesh\n---\n',
    });
    await saveWorkspace(w.app.ctx, ticket.id, {
      dir: join(w.bundled, 'checkout'),
      home: join(w.bundled, 'home'),
      repo: 'acme/web',
      cloneUrl: repo.url,
      branch: `sy/${ticket.id}`,
      base: 'main',
    });
    const withCrew = await getTicket(w.app.ctx, ticket.id);
    if (!withCrew) throw new Error('no ticket');
    const snap = await resolveTurnArtifacts(w.rt, withCrew, 'turn-trust', projectTree(w.rt.ctx, withCrew.id));
    // The project's texts win (trust admits them), its widening does not.
    expect(snap.role).toMatchObject({ name: 'reviewer', tier: 'project', profile: 'reviewer' });
    expect(snap.role.body).toContain('PROJECT reviewer');
    expect(snap.crew).toMatchObject({ name: 'review', tier: 'project' });
    expect(snap.topology).toBe('hub');
    expect(snap.problems).toEqual(
      expect.arrayContaining([
        '.fleet/roles/reviewer.role.md: profile "worker" refused: the bundled role "reviewer" is reviewer, and trust never widens a profile',
        '.fleet/crews/review.crew.md: topology "mesh" refused: the bundled role "reviewer" is reviewer, and trust never gives it peers',
      ]),
    );
    const offered = toolsForProfile(snap.role.profile, ALL.map(named), snap.topology).map((t) => t.name);
    for (const t of ['write_file', 'commit_and_push', 'open_pr', 'message_peer'])
      expect(offered).not.toContain(t);
    expect(offered).toEqual(expect.arrayContaining(['reply', 'report', 'read_file']));
  });

  /** A review ticket in a trusted repository holding `files`, resolved as its executor's turn would. */
  async function reviewTicket(files: Record<string, string>) {
    const card = await loadCard(
      w.app.ctx,
      await send(w.app.ctx, localMessage('Please review the login change')),
    );
    if (!card) throw new Error('no card');
    const ticket = await createTicket(w.app.ctx, card, { why: 'test' });
    await updateTicket(w.app.ctx, ticket.id, { crew: { name: 'review', from: 'routing' } });
    const repo = makeBareRepo(join(w.bundled, `project-${ticket.id}`), files);
    await saveWorkspace(w.app.ctx, ticket.id, {
      dir: join(w.bundled, `checkout-${ticket.id}`),
      home: join(w.bundled, `home-${ticket.id}`),
      repo: `acme/web-${ticket.id.toLowerCase()}`, // one mirror each
      cloneUrl: repo.url,
      branch: `sy/${ticket.id}`,
      base: 'main',
    });
    const withCrew = await getTicket(w.app.ctx, ticket.id);
    if (!withCrew) throw new Error('no ticket');
    const turnId = `turn-${ticket.id}`;
    const snap = await resolveTurnArtifacts(w.rt, withCrew, turnId, projectTree(w.rt.ctx, withCrew.id));
    const offered = executorTools({
      rt: w.rt,
      ticket: withCrew,
      turnId,
      batch: new Map(),
      artifacts: snap,
    }).map((t) => t.name);
    return { snap, offered };
  }

  it('F-13: a trusted repository’s review crew naming the writing role "worker" is offered no writing tool', async () => {
    const { snap, offered } = await reviewTicket({
      '.fleet/crews/review.crew.md': '---\nname: review\nrole: worker\ntopology: hub\n---\nPush fixes.\n',
    });
    expect(snap.crew).toMatchObject({ name: 'review', tier: 'project' });
    expect(snap.role).toMatchObject({ name: 'worker', profile: 'reviewer' });
    expect(snap.problems).toContain(
      '.fleet/crews/review.crew.md: profile "worker" refused: the bundled crew "review" is reviewer, and trust never widens a profile',
    );
    for (const t of WRITING) expect(offered).not.toContain(t);
    expect(offered).toEqual(expect.arrayContaining(['reply', 'report', 'read_file', 'run_command']));
  });

  it('F-13: a review crew naming a new role with "profile: worker", or a broken one that falls back to default, stays read-only', async () => {
    const fixer = await reviewTicket({
      '.fleet/roles/fixer.role.md': '---\nname: fixer\nprofile: worker\n---\nFix what you find.\n',
      '.fleet/crews/review.crew.md': '---\nname: review\nrole: fixer\ntopology: mesh\n---\n',
    });
    expect(fixer.snap.role).toMatchObject({ name: 'fixer', tier: 'project', profile: 'reviewer' });
    expect(fixer.snap.topology).toBe('hub');
    for (const t of [...WRITING, 'message_peer']) expect(fixer.offered).not.toContain(t);
    // The wanted crew does not resolve, so the (project's) default runs: still a review, still read-only.
    const broken = await reviewTicket({
      '.fleet/crews/review.crew.md': '---\nname: review\nrole: nobody\ntopology: hub\n---\n',
    });
    expect(broken.snap.crew.name).toBe('default');
    expect(broken.snap.role.profile).toBe('reviewer');
    for (const t of WRITING) expect(broken.offered).not.toContain(t);
  });
});
