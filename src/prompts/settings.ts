import { z } from 'zod';
import type { Skill } from './parse-skill.ts';
import { TEAM_FIELDS, type TeamField } from './section-keys.ts';

/**
 * An override as stored (R-E6): the team's text and the built-in text it was written against,
 * so a later release can tell the team "Default updated" and show what changed.
 */
export interface StoredOverride {
  text: string;
  base: string;
}

/** The whole team-editable configuration of one version (R-E1, R-F1). */
export interface PromptSettings {
  team: Partial<Record<TeamField, string>>;
  overrides: Record<string, StoredOverride>;
  skills: Skill[];
}

/** A stored version's settings, read through zod (issue 20); validated in full when saved. */
export const StoredPromptSettings = z.object({
  team: z.partialRecord(z.enum(TEAM_FIELDS as [TeamField, ...TeamField[]]), z.string()),
  overrides: z.record(z.string(), z.object({ text: z.string(), base: z.string() })),
  skills: z
    .array(z.object({ name: z.string(), description: z.string().optional(), text: z.string() }))
    .transform((skills) =>
      skills.map(({ description, ...s }): Skill => (description === undefined ? s : { ...s, description })),
    ),
}) satisfies z.ZodType<PromptSettings, unknown>;

/** No team text, no overrides, no skills: every section follows its default. */
export const emptySettings = (): PromptSettings => ({ team: {}, overrides: {}, skills: [] });

/** Where a save came from (R-F1): the panel, `orchestrator_prompts_save`, or the API directly. */
export type SaveSource = 'panel' | 'tool' | 'api';

/** Who and how, recorded on every version. */
export interface SaveMeta {
  source: SaveSource;
  /** A person's id or login; null when unknown. */
  who: string | null;
}

/** One problem found by validation, with a stable `code` (R-F4). */
export interface SettingsProblem {
  /** Dotted path of the offending value, e.g. `overrides.runtime/policy` or `skills.0.name`. */
  key: string;
  code:
    | 'unknown_key'
    | 'unknown_section'
    | 'reserved_skill_name'
    | 'duplicate_skill_name'
    | 'invalid_name'
    | 'missing_placeholder'
    | 'reserved_heading'
    | 'too_large'
    | 'invalid_value';
  message: string;
}
