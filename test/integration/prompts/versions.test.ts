import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  getPromptsView,
  getVersion,
  listVersions,
  restore,
  savePrompts,
} from '../../../src/prompts/index.ts';
import { redisUrl } from '../../kit/redis.ts';
import { panel, promptWorld } from './world.ts';

const world = promptWorld();
// A second connection, as a second web process would have, for the race.
const other = new Redis(redisUrl(), { maxRetriesPerRequest: null });
afterAll(() => other.disconnect());
const settings = (about: string) => ({ team: { about }, overrides: {}, skills: [] });

describe('prompt versions (R-F1, R-F2)', () => {
  it('R-F1: every save creates an immutable version with config, revision, predecessor, time, source and who', async () => {
    const deps = { ...(await world()), now: () => Date.UTC(2026, 0, 2, 3, 4, 5) };
    expect(await savePrompts(deps, { baseRevision: 0, ...settings('one') }, panel)).toEqual({
      ok: true,
      revision: 1,
      dropped: [],
    });
    await savePrompts(deps, { baseRevision: 1, ...settings('two') }, { source: 'tool', who: 'bob' });
    const v1 = await getVersion(deps, 1);
    expect(v1).toEqual({
      revision: 1,
      predecessor: null,
      createdAt: '2026-01-02T03:04:05.000Z',
      source: 'panel',
      who: 'alice',
      config: { team: { about: 'one' }, overrides: {}, skills: [] },
    });
    expect((await getVersion(deps, 2))?.predecessor).toBe(1);
    expect((await listVersions(deps)).map((v) => [v.revision, v.source, v.config.team.about])).toEqual([
      [2, 'tool', 'two'],
      [1, 'panel', 'one'],
    ]);
  });

  it('R-F2: a save on a stale base is a conflict naming the current revision, and nothing is written', async () => {
    const deps = await world();
    await savePrompts(deps, { baseRevision: 0, ...settings('first') }, panel);
    const stale = await savePrompts(deps, { baseRevision: 0, ...settings('late') }, panel);
    expect(stale).toEqual({ ok: false, error: 'conflict', currentRevision: 1 });
    expect(await listVersions(deps)).toHaveLength(1);
    expect((await getPromptsView(deps)).team).toEqual({ about: 'first' });
    expect(await getVersion(deps, 2)).toBeNull();
  });

  it('R-F2: of two concurrent saves on the same base exactly one wins (50 runs)', async () => {
    for (let run = 0; run < 50; run++) {
      const deps = await world();
      await savePrompts(deps, { baseRevision: 0, ...settings('base') }, panel);
      const results = await Promise.all([
        savePrompts(deps, { baseRevision: 1, ...settings('a') }, panel),
        savePrompts({ ...deps, redis: other }, { baseRevision: 1, ...settings('b') }, panel),
      ]);
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      expect(results.find((r) => !r.ok)).toEqual({ ok: false, error: 'conflict', currentRevision: 2 });
      const versions = await listVersions(deps);
      expect(versions.map((v) => v.revision)).toEqual([2, 1]);
      const winner = results[0]?.ok ? 'a' : 'b';
      expect((await getPromptsView(deps)).team.about).toBe(winner);
    }
  });

  it('R-F2: an invalid save reports its problems and writes nothing', async () => {
    const deps = await world();
    const r = await savePrompts(
      deps,
      { baseRevision: 0, team: {}, overrides: { nope: { text: 'x' } }, skills: [] },
      panel,
    );
    expect(r).toMatchObject({
      ok: false,
      error: 'invalid',
      errors: [{ key: 'overrides.nope', code: 'unknown_section' }],
    });
    expect(await listVersions(deps)).toEqual([]);
  });

  it('R-F1: restoring a version creates a new version holding that configuration', async () => {
    const deps = await world();
    await savePrompts(deps, { baseRevision: 0, ...settings('one') }, panel);
    await savePrompts(deps, { baseRevision: 1, ...settings('two') }, panel);
    expect(await restore(deps, { baseRevision: 2, revision: 1 }, panel)).toEqual({
      ok: true,
      revision: 3,
      dropped: [],
    });
    const v3 = await getVersion(deps, 3);
    expect(v3).toMatchObject({
      revision: 3,
      predecessor: 2,
      restoredFrom: 1,
      config: { team: { about: 'one' } },
    });
    expect((await getVersion(deps, 1))?.revision).toBe(1);
    expect(await listVersions(deps)).toHaveLength(3);
  });

  it('R-F1: restoring the defaults creates a new, empty version', async () => {
    const deps = await world();
    await savePrompts(deps, { baseRevision: 0, ...settings('one') }, panel);
    expect(await restore(deps, { baseRevision: 1, defaults: true }, panel)).toMatchObject({
      ok: true,
      revision: 2,
    });
    expect(await getVersion(deps, 2)).toMatchObject({
      restoredFrom: 'defaults',
      config: { team: {}, overrides: {}, skills: [] },
    });
  });

  it('R-F2: a restore on a stale base is a conflict; an unknown revision is not found', async () => {
    const deps = await world();
    await savePrompts(deps, { baseRevision: 0, ...settings('one') }, panel);
    expect(await restore(deps, { baseRevision: 0, defaults: true }, panel)).toEqual({
      ok: false,
      error: 'conflict',
      currentRevision: 1,
    });
    expect(await restore(deps, { baseRevision: 1, revision: 9 }, panel)).toEqual({
      ok: false,
      error: 'not_found',
      revision: 9,
    });
  });

  it('R-F4: an override saved identical to its default disappears, so the section follows future defaults', async () => {
    const deps = await world();
    const work = deps.builtins.sections.work;
    const body = {
      baseRevision: 0,
      team: {},
      overrides: { work: { text: work }, handoff: { text: 'ours' } },
      skills: [],
    };
    await savePrompts(deps, body, panel);
    const view = await getPromptsView(deps);
    expect(view.sections.find((s) => s.key === 'work')?.override).toBeNull();
    expect(view.sections.find((s) => s.key === 'handoff')?.override?.text).toBe('ours');
  });

  it('revision 0 is the defaults and is readable', async () => {
    const deps = await world();
    expect(await getVersion(deps, 0)).toMatchObject({
      revision: 0,
      config: { team: {}, overrides: {}, skills: [] },
    });
    expect((await getPromptsView(deps)).revision).toBe(0);
  });
});
