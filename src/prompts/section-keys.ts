/**
 * The built-in system-prompt sections (R-E1): every key a team may override, and the file under
 * `prompts/` that holds its default. The set is defined here, not by scanning the directory, so a
 * stray file never becomes an overridable section and a missing one fails start-up.
 */
export const SECTION_FILES = {
  shared: 'shared.md',
  'role/main': 'role/main.md',
  'role/executor': 'role/executor.md',
  subscription: 'subscription.md',
  dispatch: 'dispatch.md',
  work: 'work.md',
  handoff: 'handoff.md',
  harness: 'harness.md',
  // R-B4: the admission instructions live in prompts/admission.md under a runtime/ key.
  'runtime/admission': 'admission.md',
  'runtime/environment': 'runtime/environment.md',
  'runtime/policy': 'runtime/policy.md',
  'runtime/policy/none': 'runtime/policy/none.md',
  'runtime/inferred': 'runtime/inferred.md',
  // Issue 15: the built-in skills are sections too (override, base, "Default updated" diff); their
  // default is the text under the skill file's front matter, in `skills/`.
  'skill/github': 'github.skill.md',
  'skill/feishu': 'feishu.skill.md',
} as const;

export type SectionKey = keyof typeof SECTION_FILES;

export const SECTION_KEYS = Object.keys(SECTION_FILES) as SectionKey[];

/** The built-in skill a `skill/<name>` section holds, or undefined for a prompt section. */
export const skillOfSection = (key: SectionKey): string | undefined =>
  key.startsWith('skill/') ? key.slice('skill/'.length) : undefined;

export const isSectionKey = (key: string): key is SectionKey => Object.hasOwn(SECTION_FILES, key);

/**
 * R-E3: generated sections are templates whose placeholders must survive every override.
 * `runtime/inferred` (the final note of an inferred ticket's executor, R-B8) follows the same rule.
 */
export const TEMPLATE_PLACEHOLDERS: Partial<Record<SectionKey, readonly string[]>> = {
  'runtime/environment': ['{variables}'],
  'runtime/policy': ['{version}', '{mode}', '{rules}'],
  'runtime/policy/none': ['{version}', '{mode}'],
  'runtime/inferred': ['{rules}'],
};

/**
 * The three team paragraphs (R-E1) and the headings they are rendered under. Built-in text
 * refers to them by these headings (R-E2), so the headings are fixed here and reserved.
 */
export const TEAM_HEADINGS = {
  about: '## Team: About us',
  process: '## Team: How we work',
  conventions: '## Team: Conventions',
} as const;

export type TeamField = keyof typeof TEAM_HEADINGS;

export const TEAM_FIELDS = Object.keys(TEAM_HEADINGS) as TeamField[];
