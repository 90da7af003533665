import { beforeAll, describe, expect, it } from 'vitest';
import {
  assembleExecutor,
  assembleMain,
  type Builtins,
  defaultPolicy,
  type PolicySettings,
} from '../../../src/prompts/index.ts';
import { builtins, everyOverride, type Fixture } from './fixture.ts';

let b: Builtins;
let f: Fixture;
beforeAll(async () => {
  b = await builtins();
  f = await everyOverride(b);
});

const mainWith = (policy: { revision: number; config: PolicySettings }) =>
  assembleMain({ builtins: b, settings: f.settings, policy, environment: f.mainEnvironment });

/** Positions of each marker in the text; -1 when absent. */
const positions = (text: string, markers: string[]) => markers.map((m) => text.indexOf(m));

describe('assembly order (R-E7)', () => {
  it('R-E7: the main session gets shared, role, team, subscription, dispatch, admission, hand-off, environment, policy', () => {
    const text = mainWith(f.policy);
    const order = positions(text, [
      '## Shared (team version)',
      '## Main role (team version)',
      '## Team: About us',
      '## Team: How we work',
      '## Team: Conventions',
      '## Subscriptions (team version)',
      '## Dispatch (team version)',
      '## Admission (team version)',
      '## Hand-off (team version)',
      '## Where you run (team version)',
      '## Policy v4 (team version)',
    ]);
    expect(order.every((p, i) => p >= 0 && (i === 0 || p > (order[i - 1] ?? 0)))).toBe(true);
    expect(text.startsWith('## Shared (team version)')).toBe(true);
  });

  it('R-E7, R-C9: an executor gets work, harness and skills, no admission and no policy; the inferred note is last', () => {
    const text = assembleExecutor({
      builtins: b,
      settings: f.settings,
      policy: f.policy,
      environment: f.executorEnvironment,
      agentsMd: f.agentsMd,
      inferredRuleIds: f.inferredRuleIds,
    });
    const order = positions(text, [
      '## Shared (team version)',
      '## Executor role (team version)',
      '## Team: About us',
      '## Subscriptions (team version)',
      '## Work (team version)',
      '## Harness (team version)',
      '## Skill: feishu',
      '## Skill: github',
      '## Skill: release-notes',
      '## Hand-off (team version)',
      '## Where you run (team version)',
      '## Repository instructions (AGENTS.md)',
      '## Inferred (team version)',
    ]);
    expect(order.every((p, i) => p >= 0 && (i === 0 || p > (order[i - 1] ?? 0)))).toBe(true);
    expect(text).not.toContain('Admission (team version)');
    expect(text).not.toContain('Policy v4');
    expect(text).not.toContain('Main role');
    expect(
      text
        .trimEnd()
        .endsWith(
          '- Flaky tests (flaky-tests): When CI reports a test that failed then passed on retry, open a ticket to stabilise it.',
        ),
    ).toBe(true);
  });

  it('R-C9: the main session reads neither the harness prompt nor AGENTS.md', () => {
    const text = assembleMain({
      builtins: b,
      settings: { team: {}, overrides: {}, skills: [] },
      policy: f.policy,
      environment: {},
    });
    expect(text).not.toContain(b.sections.harness);
    expect(text).not.toContain('AGENTS.md)');
  });

  it('R-E8: environment values fill {variables} as one line each', () => {
    expect(mainWith(f.policy)).toContain(
      '- deployment: switchyard-prod\n- repositories: example/checkout, example/android\n',
    );
  });
});

describe('policy section (R-E9)', () => {
  it('R-E9: one line per enabled rule, exactly "- <name> (<id>): <instruction>", disabled rules left out', () => {
    const text = mainWith(f.policy);
    expect(text).toContain(
      '- Flaky tests (flaky-tests): When CI reports a test that failed then passed on retry, open a ticket to stabilise it.\n- Dependabot failures (dependabot): When a Dependabot PR fails CI, open a ticket to fix the build.\n',
    );
    expect(text).not.toContain('typos');
  });

  it('R-E9: with no rule enabled the none template states the version and mode', () => {
    const text = assembleMain({
      builtins: b,
      settings: { team: {}, overrides: {}, skills: [] },
      policy: { revision: 7, config: defaultPolicy() },
      environment: {},
    });
    expect(text).toContain('Policy version 7. Accept mode: `explicit`.');
    expect(text).toContain('No policy rule is enabled');
  });

  it('R-E9: a policy-only change leaves everything before the policy section byte-identical', () => {
    const before = mainWith(f.policy);
    const changed = {
      revision: 5,
      config: {
        mode: 'explicit' as const,
        rules: [{ id: 'new', name: 'New', instruction: 'Do it.', enabled: true }],
      },
    };
    const after = mainWith(changed);
    const none = mainWith({ revision: 6, config: defaultPolicy() });
    const cut = before.indexOf('## Policy v4');
    expect(cut).toBeGreaterThan(0);
    expect(after.slice(0, cut)).toBe(before.slice(0, cut));
    expect(none.slice(0, cut)).toBe(before.slice(0, cut));
    expect(after.slice(cut)).not.toBe(before.slice(cut));
  });
});
