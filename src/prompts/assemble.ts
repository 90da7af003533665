import { bulletLines, fillTemplate } from './fill-template.ts';
import type { Builtins } from './load-builtins.ts';
import type { Skill } from './parse-skill.ts';
import type { PolicySettings } from './policy-settings.ts';
import { agentsBlock, roleBlock, skillsBlock, teamBlock, workflowBlock } from './render-blocks.ts';
import { renderInferredNote, renderPolicy } from './render-policy.ts';
import { isSectionKey, SECTION_KEYS, type SectionKey } from './section-keys.ts';
import type { PromptSettings } from './settings.ts';
import { normalizeText } from './text.ts';

export interface AssemblyInput {
  builtins: Builtins;
  settings: PromptSettings;
  policy: { revision: number; config: PolicySettings };
  /** R-E8: deployment-wide values for the main session, the ticket's own for an executor. */
  environment: Readonly<Record<string, string>>;
}

export interface ExecutorAssemblyInput extends AssemblyInput {
  /** The repository's AGENTS.md, when the checkout has one (R-C9). */
  agentsMd?: string | null;
  /** Ids of the policy rules an inferred ticket matched; absent for explicit requests (R-B8). */
  inferredRuleIds?: readonly string[];
  /** The crew's role body (issue 7, R-G1), shown with the executor's own role text. */
  role?: { name: string; body: string };
  /** The crew's workflow, shown with the work instructions. */
  workflow?: { name: string; stages: readonly string[]; body: string };
  /** The skills after tier resolution (R-G2), in place of the team's saved skills. */
  skills?: readonly Skill[];
}

/** Every section as the team overrode it (R-E10 level 2), else the built-in default. */
export function effectiveSections(builtins: Builtins, settings: PromptSettings): Record<SectionKey, string> {
  const out = {} as Record<SectionKey, string>;
  for (const key of SECTION_KEYS) {
    const override = settings.overrides[key];
    out[key] = override ? normalizeText(override.text) : builtins.sections[key];
  }
  return out;
}

const environmentOf = (s: Record<SectionKey, string>, env: Readonly<Record<string, string>>) =>
  fillTemplate(s['runtime/environment'], {
    variables: bulletLines(Object.entries(env).map(([k, v]) => `${k}: ${v}`)),
  });

const join = (parts: string[]): string => `${parts.filter((p) => p.trim() !== '').join('\n\n')}\n`;

/**
 * The main session's system prompt in R-E7 order: shared + role, team paragraphs, subscription,
 * dispatch, admission, hand-off, environment, policy. The policy is last so a policy change
 * leaves every byte before it, and the provider's prefix cache, unchanged (R-E9).
 */
export function assembleMain(input: AssemblyInput): string {
  const s = effectiveSections(input.builtins, input.settings);
  return join([
    s.shared,
    s['role/main'],
    teamBlock(input.settings.team),
    s.subscription,
    s.dispatch,
    s['runtime/admission'],
    s.handoff,
    environmentOf(s, input.environment),
    renderPolicy(s, input.policy.revision, input.policy.config),
  ]);
}

/**
 * An executor's system prompt in R-E7 order: shared + role, team paragraphs, subscription, work
 * (with the coding-harness prompt and the skills, R-C9), hand-off, environment; then the
 * repository's AGENTS.md and, for an inferred ticket, the restricting note, which comes last.
 * No admission and no policy section: those are the main session's (R-E7 steps 5 and 8).
 */
export function assembleExecutor(input: ExecutorAssemblyInput): string {
  const s = effectiveSections(input.builtins, input.settings);
  const inferred = input.inferredRuleIds?.length
    ? renderInferredNote(s, input.policy.config, input.inferredRuleIds)
    : '';
  return join([
    s.shared,
    s['role/executor'],
    roleBlock(input.role),
    teamBlock(input.settings.team),
    s.subscription,
    s.work,
    workflowBlock(input.workflow),
    s.harness,
    skillsBlock([...builtinSkills(input.builtins, s), ...(input.skills ?? input.settings.skills)]),
    s.handoff,
    environmentOf(s, input.environment),
    agentsBlock(input.agentsMd ?? ''),
    inferred,
  ]);
}

/** The bundled skills with their text as the team overrode it (issue 15: `skill/<name>` sections). */
function builtinSkills(builtins: Builtins, s: Record<SectionKey, string>): Skill[] {
  return builtins.skills.map((skill) => {
    const key = `skill/${skill.name}`;
    return isSectionKey(key) ? { ...skill, text: s[key] } : skill;
  });
}
