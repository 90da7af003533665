import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolsForProfile } from '../../../src/artifacts/tools-for-profile.ts';
import { resolveTurnArtifacts } from '../../../src/artifacts/turn-artifacts.ts';
import { loadCard } from '../../../src/cards/ingest.ts';
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
});
