import type { Builtins } from './load-builtins.ts';
import type { Skill } from './parse-skill.ts';
import { isSectionKey, type SectionKey } from './section-keys.ts';
import { overrideProblems, type SemanticContext, skillProblems, teamProblems } from './semantic-problems.ts';
import type { PromptSettings, SettingsProblem, StoredOverride } from './settings.ts';
import { SettingsInput } from './settings-schema.ts';
import { asRecord, settingsSize } from './settings-size.ts';
import { normalizeText, sameText } from './text.ts';
import { zodProblems } from './zod-problems.ts';

export interface PrepareContext extends SemanticContext {
  /** The deployment's total size cap in characters (PROMPT_SIZE_CAP, R-F4). */
  sizeCap: number;
}

export type PrepareResult =
  | { ok: true; settings: PromptSettings; dropped: string[] }
  | { ok: false; errors: SettingsProblem[] };

/**
 * Validates a save and turns it into the configuration to store. Every problem is reported at
 * once (R-F4), sorted by key so the answer is stable; nothing is truncated. On success: an omitted base keeps the saved base (R-E5), an
 * override identical to its default is removed so the section follows future defaults (R-F4),
 * and sections this release no longer has are dropped and listed in `dropped` (R-E5).
 */
export function prepareSettings(input: unknown, ctx: PrepareContext): PrepareResult {
  const raw = asRecord(input);
  const errors = [
    ...teamProblems(raw.team),
    ...overrideProblems(raw.overrides, ctx),
    ...skillProblems(raw.skills, ctx),
  ];
  const size = settingsSize(raw);
  if (size > ctx.sizeCap) {
    errors.push({
      key: '(total)',
      code: 'too_large',
      message: `the settings hold ${size} characters, over the cap of ${ctx.sizeCap}; shorten them (nothing is cut)`,
    });
  }
  const parsed = SettingsInput.safeParse(input ?? {});
  if (!parsed.success) errors.push(...zodProblems(parsed.error));
  if (errors.length > 0 || !parsed.success)
    return { ok: false, errors: dedupe(errors).sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0)) };
  const { overrides, dropped } = mergeOverrides(parsed.data.overrides, ctx.saved, ctx.builtins);
  const settings = {
    team: cleanTeam(parsed.data.team),
    overrides,
    skills: parsed.data.skills.map(cleanSkill),
  };
  return { ok: true, settings, dropped };
}

function mergeOverrides(input: SettingsInput['overrides'], saved: PromptSettings, builtins: Builtins) {
  const overrides: Record<string, StoredOverride> = {};
  const dropped: string[] = [];
  for (const [key, o] of Object.entries(input)) {
    if (!isSectionKey(key)) {
      dropped.push(key);
      continue;
    }
    const dflt = builtins.sections[key as SectionKey];
    if (sameText(o.text, dflt)) continue;
    overrides[key] = { text: o.text, base: normalizeText(o.base ?? saved.overrides[key]?.base ?? dflt) };
  }
  return { overrides, dropped };
}

function cleanTeam(team: SettingsInput['team']): PromptSettings['team'] {
  const out: PromptSettings['team'] = {};
  for (const [field, text] of Object.entries(team)) {
    if (text !== undefined && text.trim() !== '') out[field as keyof typeof out] = text;
  }
  return out;
}

function cleanSkill(s: SettingsInput['skills'][number]): Skill {
  return s.description === undefined ? { name: s.name, text: s.text } : { ...s, description: s.description };
}

function dedupe(errors: SettingsProblem[]): SettingsProblem[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const id = `${e.key}\0${e.code}\0${e.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
