import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assembleExecutor,
  defaultBuiltinDirs,
  defaultPolicy,
  getPromptsView,
  loadBuiltins,
  readPromptsForTool,
  savePrompts,
} from '../../../src/prompts/index.ts';
import { panel, promptWorld } from './world.ts';

const world = promptWorld();
const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

/** A copy of `prompts/` with one file edited: the next release's built-in texts. */
async function upgradedBuiltins(file: string, edit: (text: string) => string) {
  const dirs = defaultBuiltinDirs();
  const dir = await mkdtemp(join(tmpdir(), 'prompts-upgrade-'));
  temps.push(dir);
  await cp(dirs.prompts, dir, { recursive: true });
  const path = join(dir, file);
  await writeFile(path, edit(await readFile(path, 'utf8')));
  return loadBuiltins({ prompts: dir, skills: dirs.skills });
}

describe('upgrades (R-E6)', () => {
  it('R-E6: a changed default marks the overridden section defaultChanged with an old→new diff and keeps the team text', async () => {
    const before = await world();
    const body = {
      baseRevision: 0,
      team: { about: 'We run payments.' },
      overrides: { handoff: { text: 'Our own hand-off rules.' } },
      skills: [],
    };
    await savePrompts(before, body, panel);
    const next = await upgradedBuiltins('handoff.md', (t) =>
      t.replace('**Ending a turn.**', '**Ending a turn (new).**'),
    );
    const after = { ...before, builtins: next };

    const view = await getPromptsView(after);
    const handoff = view.sections.find((s) => s.key === 'handoff');
    expect(handoff?.defaultChanged).toBe(true);
    expect(handoff?.override).toEqual({
      text: 'Our own hand-off rules.',
      base: before.builtins.sections.handoff,
    });
    expect(handoff?.default).toBe(next.sections.handoff);
    expect(handoff?.diff).toContain('--- handoff (previous default)\n+++ handoff (current default)\n');
    expect(handoff?.diff).toContain('\n-**Ending a turn.** When nothing');
    expect(handoff?.diff).toContain('\n+**Ending a turn (new).** When nothing');
    expect(view.team).toEqual({ about: 'We run payments.' });
    expect(view.sections.filter((s) => s.defaultChanged).map((s) => s.key)).toEqual(['handoff']);

    const tool = await readPromptsForTool(after);
    expect(tool.default_changed).toEqual(['handoff']);
    expect(tool.overrides.handoff).toEqual({ text: 'Our own hand-off rules.', default_changed: true });
  });

  it('R-E6: a section without an override follows the new default; the team text stays in the prompt', async () => {
    const before = await world();
    const body = { baseRevision: 0, team: { about: 'We run payments.' }, overrides: {}, skills: [] };
    await savePrompts(before, body, panel);
    const next = await upgradedBuiltins('work.md', (t) => `${t}\nA new closing line.\n`);
    const view = await getPromptsView({ ...before, builtins: next });
    expect(view.sections.some((s) => s.defaultChanged)).toBe(false);
    const text = assembleExecutor({
      builtins: next,
      settings: { team: view.team, overrides: {}, skills: [] },
      policy: { revision: 0, config: defaultPolicy() },
      environment: {},
    });
    expect(text).toContain('A new closing line.');
    expect(text).toContain('## Team: About us\n\nWe run payments.');
  });

  it('R-E6: editing after an upgrade records the new base and clears "Default updated"', async () => {
    const before = await world();
    await savePrompts(before, { baseRevision: 0, overrides: { handoff: { text: 'v1' } } }, panel);
    const next = await upgradedBuiltins('handoff.md', (t) => `${t}\nMore.\n`);
    const after = { ...before, builtins: next };
    const handoff = { text: 'v2', base: next.sections.handoff };
    await savePrompts(after, { baseRevision: 1, overrides: { handoff } }, panel);
    const view = await getPromptsView(after);
    expect(view.sections.find((s) => s.key === 'handoff')).toMatchObject({
      defaultChanged: false,
      diff: null,
    });
  });
});
