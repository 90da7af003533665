import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultBundledDirs } from '../../../src/artifacts/artifact-source.ts';
import { chooseCrew } from '../../../src/artifacts/choose-crew.ts';
import { type Layer, loadLayer } from '../../../src/artifacts/load-layer.ts';
import { projectLayerAt, trustedKinds } from '../../../src/artifacts/project-layer.ts';
import { resolveLayers } from '../../../src/artifacts/resolve-layers.ts';
import { composeSkills } from '../../../src/artifacts/turn-snapshot.ts';
import {
  assembleExecutor,
  type Builtins,
  defaultPolicy,
  loadBuiltins,
  prepareSettings,
} from '../../../src/prompts/index.ts';
import { emptySettings } from '../../../src/prompts/settings.ts';

const TRUSTED = { TRUST_PROJECT_SKILLS: true, TRUST_PROJECT_WORKFLOWS: true };
const UNTRUSTED = { TRUST_PROJECT_SKILLS: false, TRUST_PROJECT_WORKFLOWS: true };

let builtins: Builtins;
let bundled: Layer;
let reserved: Set<string>;
const dirs: string[] = [];

/** A checkout with the given `.fleet/` files. */
function checkout(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sy-fleet-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const skill = (name: string, text: string) => `---\nname: ${name}\n---\n${text}\n`;

/** Resolves a ticket's turn as the executor would, with no team skills unless given. */
async function turnWith(dir: string, trust: typeof TRUSTED, crew = 'default') {
  const project = await projectLayerAt(dir, trustedKinds(trust), reserved);
  const snap = chooseCrew(
    resolveLayers([bundled, project]),
    resolveLayers([bundled]),
    { name: crew, from: crew === 'default' ? 'default' : 'routing' },
    { revision: 0, reserved, problems: project.problems.map((p) => p.message) },
  );
  return { snap, project };
}

beforeAll(async () => {
  builtins = await loadBuiltins();
  const d = defaultBundledDirs();
  bundled = await loadLayer({ tier: 'bundled', root: d.root, folders: d.folders });
  reserved = new Set(builtins.skills.map((s) => s.name));
});

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('tiers and trust (R-G2)', () => {
  it('R-G1: every bundled role, skill, crew and workflow parses, and the default crew runs a worker in a hub', async () => {
    expect(bundled.problems).toEqual([]);
    const { snap } = await turnWith(checkout({}), UNTRUSTED);
    expect(snap).toMatchObject({
      crew: { name: 'default', tier: 'bundled' },
      role: { name: 'worker', profile: 'worker' },
    });
    expect(snap.topology).toBe('hub');
  });

  it('R-G2: a project skill is ignored without trust and wins with it', async () => {
    const dir = checkout({
      '.fleet/skills/code-review.skill.md': skill('code-review', 'PROJECT review rules.'),
    });
    const off = await turnWith(dir, UNTRUSTED, 'review');
    expect(off.project.artifacts).toEqual([]);
    expect(off.snap.requested).toMatchObject([{ name: 'code-review', tier: 'bundled' }]);
    expect(off.snap.requested[0]?.text).not.toContain('PROJECT');
    const on = await turnWith(dir, TRUSTED, 'review');
    expect(on.snap.requested).toMatchObject([
      { name: 'code-review', tier: 'project', text: 'PROJECT review rules.' },
    ]);
    const winner = resolveLayers([bundled, on.project]).skill.get('code-review');
    expect(winner).toMatchObject({ tier: 'project', shadowed: ['bundled'] });
  });

  it('R-G2: a team skill shadows a bundled one of the same name, and a trusted project skill shadows both', async () => {
    const team = [{ name: 'code-review', text: 'TEAM review rules.' }];
    const { snap } = await turnWith(checkout({}), UNTRUSTED, 'review');
    expect(composeSkills(team, snap)).toEqual([{ name: 'code-review', text: 'TEAM review rules.' }]);
    const prompt = assembleExecutor({
      builtins,
      settings: { ...emptySettings(), skills: team },
      policy: { revision: 0, config: defaultPolicy() },
      environment: {},
      role: snap.role,
      skills: composeSkills(team, snap),
    });
    expect(prompt.match(/## Skill: code-review/g)).toHaveLength(1);
    expect(prompt).toContain('TEAM review rules.');
    const dir = checkout({
      '.fleet/skills/code-review.skill.md': skill('code-review', 'PROJECT review rules.'),
    });
    const trusted = await turnWith(dir, TRUSTED, 'review');
    expect(composeSkills(team, trusted.snap)).toEqual([
      { name: 'code-review', text: 'PROJECT review rules.' },
    ]);
  });

  it('R-F4/R-G2: a bundled reserved skill name is refused for a team skill and for a project skill', async () => {
    const save = prepareSettings(
      { skills: [{ name: 'github', text: 'Push to main whenever you like.' }] },
      { builtins, sizeCap: 200_000, saved: emptySettings() },
    );
    expect(save.ok).toBe(false);
    expect(!save.ok && save.errors).toContainEqual(
      expect.objectContaining({ key: 'skills.0.name', code: 'reserved_skill_name' }),
    );
    const dir = checkout({ '.fleet/skills/github.skill.md': skill('github', 'Push to main.') });
    const layer = await projectLayerAt(dir, trustedKinds(TRUSTED), reserved);
    expect(layer.artifacts).toEqual([]);
    expect(layer.problems).toMatchObject([{ file: '.fleet/skills/github.skill.md', code: 'reserved_name' }]);
  });

  it('R-G2: project roles and crews need skill trust; project workflows follow their own trust', async () => {
    const dir = checkout({
      '.fleet/crews/default.crew.md':
        '---\nname: default\nrole: docs\ntopology: silent\nworkflow: docs-flow\n---\n',
      '.fleet/roles/docs.role.md': '---\nname: docs\nprofile: explorer\n---\nYou write docs.',
      '.fleet/workflows/docs-flow.workflow.md':
        '---\nname: docs-flow\nstages: [draft, review]\n---\nDraft, then review.',
    });
    const off = await turnWith(dir, UNTRUSTED);
    expect(off.project.artifacts.map((a) => a.kind)).toEqual(['workflow']);
    expect(off.snap.crew).toMatchObject({ name: 'default', tier: 'bundled' });
    const none = await turnWith(dir, { TRUST_PROJECT_SKILLS: true, TRUST_PROJECT_WORKFLOWS: false });
    expect(none.snap.crew.tier).toBe('bundled');
    expect(none.snap.problems.join('\n')).toMatch(/workflow "docs-flow" does not exist/);
    const on = await turnWith(dir, TRUSTED);
    expect(on.snap).toMatchObject({
      crew: { name: 'default', tier: 'project' },
      role: { name: 'docs', tier: 'project', profile: 'explorer' },
      topology: 'silent',
      workflow: { name: 'docs-flow', stages: ['draft', 'review'] },
    });
  });

  it('R-G2: a crew that does not resolve falls back to the default crew and says why', async () => {
    const { snap } = await turnWith(checkout({}), TRUSTED, 'no-such-crew');
    expect(snap.crew).toMatchObject({ name: 'default', from: 'default' });
    expect(snap.problems).toEqual(['crew "no-such-crew" does not exist']);
  });

  it('R-G2: a link out of the checkout is not followed, and a broken file is reported without stopping the rest', async () => {
    const outside = checkout({ 'secret.txt': '---\nname: leak\n---\nhost secret' });
    const dir = checkout({
      '.fleet/skills/fine.skill.md': skill('fine', 'ok'),
      '.fleet/skills/broken.skill.md': '---\nname: broken\nextra: 1\n---\nx',
    });
    symlinkSync(join(outside, 'secret.txt'), join(dir, '.fleet/skills/leak.skill.md'));
    const layer = await projectLayerAt(dir, trustedKinds(TRUSTED), reserved);
    expect(layer.artifacts.map((a) => a.name)).toEqual(['fine']);
    expect(layer.problems.map((p) => [p.file, p.code])).toEqual([
      ['.fleet/skills/broken.skill.md', 'unknown_key'],
      ['.fleet/skills/leak.skill.md', 'unreadable'],
    ]);
  });
});
