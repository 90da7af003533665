import { describe, expect, it } from 'vitest';
import {
  getPromptsView,
  getVersion,
  promptsSaveTool,
  readPromptsForTool,
  savePrompts,
} from '../../../src/prompts/index.ts';
import { panel, promptWorld } from './world.ts';

const world = promptWorld();

describe('orchestrator_prompts_save and orchestrator_read prompts (R-E5)', () => {
  it('R-E5: omitted team, skills and overrides keep their saved values; the version records source tool', async () => {
    const deps = await world();
    const skills = [{ name: 'notes', text: 'Write notes.' }];
    await savePrompts(
      deps,
      { baseRevision: 0, team: { about: 'Us.' }, overrides: { work: { text: 'W' } }, skills },
      panel,
    );
    const r = await promptsSaveTool(deps, { base_revision: 1, team: { about: 'Us, updated.' } }, 'ou_alice');
    expect(r).toEqual({ ok: true, revision: 2, dropped: [] });
    expect(await getVersion(deps, 2)).toMatchObject({
      source: 'tool',
      who: 'ou_alice',
      config: { team: { about: 'Us, updated.' }, overrides: { work: { text: 'W' } }, skills },
    });
  });

  it('R-E5: an override without base keeps the saved base; a saved section missing from the save is dropped', async () => {
    const deps = await world();
    const overrides = { work: { text: 'W', base: 'an older default' }, handoff: { text: 'H' } };
    await savePrompts(deps, { baseRevision: 0, overrides }, panel);
    await promptsSaveTool(deps, { base_revision: 1, overrides: { work: { text: 'W2' } } }, 'ou_alice');
    const view = await getPromptsView(deps);
    expect(view.sections.find((s) => s.key === 'work')?.override).toEqual({
      text: 'W2',
      base: 'an older default',
    });
    expect(view.sections.find((s) => s.key === 'handoff')?.override).toBeNull();
  });

  it('R-E5: any other unknown section is rejected, and a stale base is a conflict', async () => {
    const deps = await world();
    expect(
      await promptsSaveTool(deps, { base_revision: 0, overrides: { bogus: { text: 'x' } } }, null),
    ).toMatchObject({
      ok: false,
      error: 'invalid',
      errors: [{ key: 'overrides.bogus', code: 'unknown_section' }],
    });
    await savePrompts(deps, { baseRevision: 0, team: { about: 'x' } }, panel);
    expect(await promptsSaveTool(deps, { base_revision: 0, team: {} }, null)).toEqual({
      ok: false,
      error: 'conflict',
      currentRevision: 1,
    });
  });

  it('R-E6: orchestrator_read prompts lists sections, overrides and default_changed, and one section in full', async () => {
    const deps = await world();
    await savePrompts(deps, { baseRevision: 0, overrides: { work: { text: 'W', base: 'old' } } }, panel);
    const read = await readPromptsForTool(deps, 'work');
    expect(read).toMatchObject({
      revision: 1,
      overrides: { work: { text: 'W', default_changed: true } },
      default_changed: ['work'],
      section: { key: 'work', default: deps.builtins.sections.work, override: 'W' },
    });
    expect(read.sections).toContain('runtime/admission');
  });
});
