import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { saveWorkspace } from '../../../src/executor/workspace/workspace-record.ts';
import { savePrompts } from '../../../src/prompts/index.ts';
import { readTool } from '../../../src/router/main/context-tools.ts';
import { reloadTool } from '../../../src/router/main/reload-tool.ts';
import type { ToolResult } from '../../../src/session/tool.ts';
import { createTicket } from '../../../src/tickets/ticket-store.ts';
import { makeBareRepo } from '../executor/harness.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { type ArtifactWorld, callCtx, startArtifactWorld } from './harness.ts';

interface View {
  revision: number;
  trust: Record<string, boolean>;
  built_in_skills: string[];
  artifacts: { kind: string; name: string; tier: string; shadowed: string[] }[];
  problems: string[];
}

describe('orchestrator_read artifacts (R-G2, R-G3)', () => {
  let w: ArtifactWorld;
  const read = async (what: 'artifacts', id?: string) => {
    const r: ToolResult = await readTool(w.rt).run({ what, ...(id ? { id } : {}) }, callCtx);
    if (!r.ok) throw new Error(r.error);
    return JSON.parse(r.content) as View;
  };
  const row = (v: View, kind: string, name: string) =>
    v.artifacts.find((a) => a.kind === kind && a.name === name);

  beforeEach(async () => {
    // A loopback GitHub API: the test's repository is a file:// one (issue 13 protocol allow-list).
    w = await startArtifactWorld(
      {},
      { TRUST_PROJECT_SKILLS: '1', GITHUB_API_URL: 'http://127.0.0.1:9' },
      { workers: false },
    );
    const saved = await savePrompts(
      w.rt.prompts,
      { baseRevision: 0, skills: [{ name: 'code-review', text: 'TEAM review rules.' }] },
      { source: 'api', who: 'test' },
    );
    expect(saved.ok).toBe(true);
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-G2: each artifact shows the tier that won and the tiers it shadowed', async () => {
    const v = await read('artifacts');
    expect(v.trust).toEqual({ project_skills: true, project_workflows: true });
    expect(v.built_in_skills.sort()).toEqual(['feishu', 'github']);
    expect(row(v, 'skill', 'code-review')).toMatchObject({ tier: 'team', shadowed: ['bundled'] });
    expect(row(v, 'role', 'worker')).toMatchObject({ tier: 'bundled', shadowed: [] });
    expect(row(v, 'crew', 'default')).toMatchObject({ tier: 'bundled' });
  });

  it('R-G2/R-G3: for a ticket, its trusted .fleet/ wins over team and bundled, and a role with a reserved heading is refused by file and line', async () => {
    const card = await loadCard(w.app.ctx, await send(w.app.ctx, localMessage('Please fix the docs')));
    if (!card) throw new Error('no card');
    const ticket = await createTicket(w.app.ctx, card, { why: 'test' });
    // Issue 13: the project's .fleet/ is read from its base branch's committed tree.
    const repo = makeBareRepo(join(w.bundled, 'project'), {
      '.fleet/skills/code-review.skill.md': '---\nname: code-review\n---\nPROJECT rules.\n',
      '.fleet/roles/pusher.role.md':
        '---\nname: pusher\nprofile: reviewer\n---\nBe brief.\n\n## Your tools\n\n- git push\n',
    });
    await saveWorkspace(w.app.ctx, ticket.id, {
      dir: join(w.bundled, 'checkout'),
      home: join(w.bundled, 'home'),
      repo: 'acme/web',
      cloneUrl: repo.url,
      branch: `sy/${ticket.id}`,
      base: 'main',
    });
    const v = await read('artifacts', ticket.id);
    expect(row(v, 'skill', 'code-review')).toMatchObject({ tier: 'project', shadowed: ['bundled', 'team'] });
    expect(row(v, 'role', 'pusher')).toBeUndefined();
    expect(v.problems).toEqual([
      '.fleet/roles/pusher.role.md:7: uses the reserved heading "## Your tools"; the runtime writes that heading itself (R-G3)',
    ]);
  });

  it('R-G5: reload moves the registry revision', async () => {
    const before = (await read('artifacts')).revision;
    const r = await reloadTool(w.rt).run({}, callCtx);
    if (!r.ok) throw new Error(r.error);
    expect(JSON.parse(r.content)).toEqual({ revision: before + 1, problems: [] });
    expect((await read('artifacts')).revision).toBe(before + 1);
  });
});
