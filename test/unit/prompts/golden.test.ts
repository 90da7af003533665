import { describe, expect, it } from 'vitest';
import { assembleExecutor, assembleMain, defaultPolicy, SECTION_KEYS } from '../../../src/prompts/index.ts';
import { emptySettings } from '../../../src/prompts/settings.ts';
import { builtins, everyOverride, fixturePath } from './fixture.ts';

// Golden files: a fixture configuration in, the exact assembled prompt out (STYLE 7). A change
// to the built-in text or to assembly shows up as a reviewable diff of these files.
describe('golden prompts (R-E7)', () => {
  it('R-E7: defaults, main session', async () => {
    const b = await builtins();
    const env = { deployment: 'switchyard-prod', repositories: 'example/checkout' };
    const text = assembleMain({
      builtins: b,
      settings: emptySettings(),
      policy: { revision: 0, config: defaultPolicy() },
      environment: env,
    });
    await expect(text).toMatchFileSnapshot(fixturePath('main.defaults.golden.md'));
  });

  it('R-E7: defaults, executor', async () => {
    const b = await builtins();
    const text = assembleExecutor({
      builtins: b,
      settings: emptySettings(),
      policy: { revision: 0, config: defaultPolicy() },
      environment: { ticket: 'T1', repository: 'example/checkout' },
    });
    await expect(text).toMatchFileSnapshot(fixturePath('executor.defaults.golden.md'));
  });

  it('R-E7: every kind of override, main session', async () => {
    const b = await builtins();
    const f = await everyOverride(b);
    expect(Object.keys(f.settings.overrides).sort()).toEqual([...SECTION_KEYS].sort());
    const text = assembleMain({
      builtins: b,
      settings: f.settings,
      policy: f.policy,
      environment: f.mainEnvironment,
    });
    await expect(text).toMatchFileSnapshot(fixturePath('main.every-override.golden.md'));
  });

  it('R-E7: every kind of override, executor of an inferred ticket with AGENTS.md', async () => {
    const b = await builtins();
    const f = await everyOverride(b);
    const text = assembleExecutor({
      builtins: b,
      settings: f.settings,
      policy: f.policy,
      environment: f.executorEnvironment,
      agentsMd: f.agentsMd,
      inferredRuleIds: f.inferredRuleIds,
    });
    await expect(text).toMatchFileSnapshot(fixturePath('executor.every-override.golden.md'));
  });
});
