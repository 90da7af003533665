import { describe, expect, it } from 'vitest';
import { getPolicy, savePolicy } from '../../../src/prompts/index.ts';
import { panel, promptWorld } from './world.ts';

const world = promptWorld();
const rule = { id: 'flaky', name: 'Flaky tests', instruction: 'Stabilise flaky tests.', enabled: true };

describe('policy settings (R-B8, R-E9)', () => {
  it('R-E9: before any save the policy is explicit with no rules, at revision 0', async () => {
    expect(await getPolicy(await world())).toEqual({ revision: 0, mode: 'explicit', rules: [] });
  });

  it('R-F2: policy saves are versioned and a stale baseRevision is a conflict that writes nothing', async () => {
    const deps = await world();
    expect(await savePolicy(deps, { baseRevision: 0, mode: 'inferred', rules: [rule] }, panel)).toMatchObject(
      {
        ok: true,
        revision: 1,
      },
    );
    expect(await savePolicy(deps, { baseRevision: 0, mode: 'explicit', rules: [] }, panel)).toEqual({
      ok: false,
      error: 'conflict',
      currentRevision: 1,
    });
    expect(await getPolicy(deps)).toEqual({ revision: 1, mode: 'inferred', rules: [rule] });
  });

  it('R-F2: of two concurrent policy saves on the same base exactly one wins', async () => {
    const deps = await world();
    const results = await Promise.all([
      savePolicy(deps, { baseRevision: 0, mode: 'inferred', rules: [] }, panel),
      savePolicy(deps, { baseRevision: 0, mode: 'explicit', rules: [] }, panel),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it('a save without baseRevision goes on top of the current revision', async () => {
    const deps = await world();
    await savePolicy(deps, { mode: 'inferred', rules: [] }, panel);
    expect(await savePolicy(deps, { mode: 'explicit', rules: [rule] }, panel)).toMatchObject({
      ok: true,
      revision: 2,
    });
  });

  it('R-E9: invalid policies report every problem: bad mode, multi-line instruction, duplicate ids', async () => {
    const deps = await world();
    const bad = await savePolicy(
      deps,
      { mode: 'sometimes', rules: [{ ...rule, instruction: 'a\nb' }] },
      panel,
    );
    const keys = !bad.ok && bad.error === 'invalid' ? bad.errors.map((e) => e.key).sort() : [];
    expect(keys).toEqual(['mode', 'rules.0.instruction']);
    const dup = await savePolicy(deps, { mode: 'inferred', rules: [rule, rule] }, panel);
    expect(dup).toMatchObject({ ok: false, error: 'invalid', errors: [{ key: 'rules.1.id' }] });
    expect((await getPolicy(deps)).revision).toBe(0);
  });
});
