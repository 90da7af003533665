import { bulletLines, fillTemplate } from './fill-template.ts';
import type { PolicyRule, PolicySettings } from './policy-settings.ts';
import type { SectionKey } from './section-keys.ts';

type Sections = Readonly<Record<SectionKey, string>>;

/** R-E9: one line per rule, exactly `- <name> (<id>): <instruction>`. */
export const ruleLine = (r: Pick<PolicyRule, 'id' | 'name' | 'instruction'>): string =>
  `${r.name} (${r.id}): ${r.instruction}`;

/**
 * The policy section, regenerated at every model request (R-E9): version, accept mode and the
 * enabled rules through the `runtime/policy` template, or `runtime/policy/none` when no rule is on.
 */
export function renderPolicy(sections: Sections, revision: number, policy: PolicySettings): string {
  const enabled = policy.rules.filter((r) => r.enabled);
  const values = { version: String(revision), mode: policy.mode };
  if (enabled.length === 0) return fillTemplate(sections['runtime/policy/none'], values);
  return fillTemplate(sections['runtime/policy'], { ...values, rules: bulletLines(enabled.map(ruleLine)) });
}

/**
 * The final note of an inferred ticket's executor (R-B8): the rules that matched, read from the
 * current policy; a rule removed since is still named by id so the restriction never widens.
 */
export function renderInferredNote(sections: Sections, policy: PolicySettings, ruleIds: readonly string[]) {
  const lines = ruleIds.map((id) => {
    const rule = policy.rules.find((r) => r.id === id);
    return rule ? ruleLine(rule) : `${id} (${id}): no longer in the policy; do nothing under it`;
  });
  return fillTemplate(sections['runtime/inferred'], { rules: bulletLines(lines) });
}
