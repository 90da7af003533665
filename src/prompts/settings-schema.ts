import { z } from 'zod';

/**
 * The shape of a settings save (`PUT /api/prompts`, `orchestrator_prompts_save`). Objects are
 * strict so a misspelt key is reported (`unknown_key`) instead of silently ignored (R-F4).
 * Semantic rules (sections, placeholders, names, size) are checked separately so that every
 * problem is reported at once, even when the shape is also wrong.
 */
export const TeamInput = z.strictObject({
  about: z.string().optional(),
  process: z.string().optional(),
  conventions: z.string().optional(),
});

export const OverrideInput = z.strictObject({
  text: z.string(),
  base: z.string().optional(),
});

export const SkillInput = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  text: z.string().refine((t) => t.trim().length > 0, 'a skill needs some text'),
});

export const SettingsInput = z.strictObject({
  team: TeamInput.default({}),
  overrides: z.record(z.string(), OverrideInput).default({}),
  skills: z.array(SkillInput).default([]),
});

export type SettingsInput = z.output<typeof SettingsInput>;

/** A save request: the settings plus the revision the draft was based on (R-F2). */
export const SaveBody = SettingsInput.extend({
  baseRevision: z.number().int().min(0),
});
