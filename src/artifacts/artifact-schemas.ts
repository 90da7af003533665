import { z } from 'zod';
import { SKILL_NAME } from '../prompts/parse-skill.ts';
import { type ArtifactKind, PROFILES, TOPOLOGIES } from './artifact.ts';

/** R-G1: lowercase kebab-case, the same rule as the team's skills. */
export const ArtifactName = z.string().regex(SKILL_NAME, 'must be lowercase kebab-case, e.g. docs-reviewer');

const common = { name: ArtifactName, description: z.string().optional() };

/**
 * Front matter per kind. Strict objects, so a misspelt key (`profle:`) is reported with its name
 * instead of silently ignored, which for `profile` would mean running with the wrong permissions.
 */
export const FRONT_MATTER = {
  role: z.strictObject({
    ...common,
    profile: z.enum(PROFILES),
    skills: z.array(ArtifactName).default([]),
  }),
  skill: z.strictObject(common),
  workflow: z.strictObject({ ...common, stages: z.array(z.string().trim().min(1)).min(1) }),
  crew: z.strictObject({
    ...common,
    role: ArtifactName,
    skills: z.array(ArtifactName).default([]),
    topology: z.enum(TOPOLOGIES),
    workflow: ArtifactName.optional(),
  }),
} satisfies Record<ArtifactKind, z.ZodType>;
