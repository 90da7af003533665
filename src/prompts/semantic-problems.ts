import type { Builtins } from './load-builtins.ts';
import { SKILL_NAME } from './parse-skill.ts';
import { usesReserved } from './reserved-markers.ts';
import { isSectionKey, TEMPLATE_PLACEHOLDERS } from './section-keys.ts';
import type { PromptSettings, SettingsProblem } from './settings.ts';
import { asRecord } from './settings-size.ts';

export interface SemanticContext {
  builtins: Builtins;
  /** The configuration the save is based on: its stale sections are dropped, not rejected (R-E5). */
  saved: PromptSettings;
}

/** Issue 15: the same list of reserved headings and tags as artifact files (R-G3). */
const reservedIn = usesReserved;

const reservedProblem = (key: string): SettingsProblem => ({
  key,
  code: 'reserved_heading',
  message:
    'uses a heading or tag the runtime writes itself (Team:, Skill:, Role:, Workflow:, Your tools, Environment, Policy, the AGENTS.md block)',
});

/**
 * Override problems: unknown sections (R-E5) and lost placeholders (R-E3). An override replaces
 * our own text (R-E10 level 2), so it may describe any format; the reserved-heading check is for
 * team paragraphs and skills.
 */
export function overrideProblems(raw: unknown, ctx: SemanticContext): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  for (const [section, value] of Object.entries(asRecord(raw))) {
    const key = `overrides.${section}`;
    if (!isSectionKey(section)) {
      // R-E5: a section the saved config holds but this release no longer has is dropped.
      if (!Object.hasOwn(ctx.saved.overrides, section)) {
        problems.push({ key, code: 'unknown_section', message: `"${section}" is not a built-in section` });
      }
      continue;
    }
    const text = asRecord(value).text;
    if (typeof text !== 'string') continue;
    for (const ph of TEMPLATE_PLACEHOLDERS[section] ?? []) {
      if (!text.includes(ph)) {
        problems.push({ key, code: 'missing_placeholder', message: `the template must keep ${ph}` });
      }
    }
  }
  return problems;
}

/** Skill problems: kebab-case names (R-G1), built-in names reserved, duplicates, reserved headings. */
export function skillProblems(raw: unknown, ctx: SemanticContext): SettingsProblem[] {
  if (!Array.isArray(raw)) return [];
  const builtinNames = new Set(ctx.builtins.skills.map((s) => s.name));
  const seen = new Set<string>();
  const problems: SettingsProblem[] = [];
  raw.forEach((item, i) => {
    const { name, text, description } = asRecord(item);
    if (reservedIn(text) || reservedIn(description)) problems.push(reservedProblem(`skills.${i}`));
    if (typeof name !== 'string') return;
    const key = `skills.${i}.name`;
    if (!SKILL_NAME.test(name)) {
      problems.push({ key, code: 'invalid_name', message: `"${name}" is not lowercase kebab-case` });
    } else if (builtinNames.has(name)) {
      problems.push({ key, code: 'reserved_skill_name', message: `"${name}" is a built-in skill's name` });
    } else if (seen.has(name)) {
      problems.push({ key, code: 'duplicate_skill_name', message: `"${name}" is used by another skill` });
    }
    seen.add(name);
  });
  return problems;
}

/** Team paragraph problems: a paragraph may not forge the assembler's headings (R-G3). */
export function teamProblems(raw: unknown): SettingsProblem[] {
  return Object.entries(asRecord(raw))
    .filter(([, text]) => reservedIn(text))
    .map(([field]) => reservedProblem(`team.${field}`));
}
