import { z } from 'zod';
import type { Skill } from '../prompts/parse-skill.ts';
import { PROFILES, type Profile, TIERS, type Tier, TOPOLOGIES, type Topology } from './artifact.ts';

/** Who chose the ticket's crew: the routing decision, a matched policy rule, or nobody (default). */
export type CrewSource = 'routing' | 'policy' | 'default';

export interface TieredSkill extends Skill {
  tier: Tier;
}

/**
 * What one executor turn runs with, resolved at its start and held for the whole turn (R-G5):
 * stored by turn id, so a turn resumed on another worker keeps it too. The team's skills are not
 * in it: they are prompt settings, read at every model request (R-F3).
 */
export interface TurnArtifacts {
  /** The registry revision this turn resolved at. */
  revision: number;
  crew: { name: string; tier: Tier; from: CrewSource };
  role: { name: string; tier: Tier; profile: Profile; body: string };
  topology: Topology;
  workflow?: { name: string; tier: Tier; stages: string[]; body: string };
  /** The skills the role and crew ask for, each resolved over the file tiers, in order. */
  requested: TieredSkill[];
  /** Trusted project skills: each shadows a team skill of its name (R-G2). */
  project: TieredSkill[];
  /** Files refused and references that did not resolve, as `file:line: message`. */
  problems: string[];
  /**
   * The ticket had no checkout when the turn started, so the project tier is not in yet: it joins
   * at the first model request after the checkout exists, in the same turn (issue 15).
   */
  projectPending?: boolean;
}

const TierSchema = z.enum(TIERS);

const TieredSkillSchema = z.object({
  name: z.string(),
  description: z.string().exactOptional(),
  text: z.string(),
  tier: TierSchema,
});

/** A snapshot as stored by turn id (`turnArtifacts`), read through zod (issue 20). */
export const TurnArtifactsSchema = z.object({
  revision: z.number(),
  crew: z.object({ name: z.string(), tier: TierSchema, from: z.enum(['routing', 'policy', 'default']) }),
  role: z.object({ name: z.string(), tier: TierSchema, profile: z.enum(PROFILES), body: z.string() }),
  topology: z.enum(TOPOLOGIES),
  workflow: z
    .object({ name: z.string(), tier: TierSchema, stages: z.array(z.string()), body: z.string() })
    .exactOptional(),
  requested: z.array(TieredSkillSchema),
  project: z.array(TieredSkillSchema),
  problems: z.array(z.string()),
  projectPending: z.boolean().exactOptional(),
}) satisfies z.ZodType<TurnArtifacts, unknown>;

const plain = ({ name, description, text }: Skill): Skill =>
  description === undefined ? { name, text } : { name, description, text };

/**
 * The skills shown after the built-in ones, tiers applied (R-G2): the team's saved skills, each
 * replaced by a trusted project skill of its name; then every requested skill not yet shown (a
 * team skill of that name has already shadowed the bundled one).
 */
export function composeSkills(team: readonly Skill[], snap: Pick<TurnArtifacts, 'requested' | 'project'>) {
  const project = new Map(snap.project.map((s) => [s.name, s]));
  const out = team.map((t) => plain(project.get(t.name) ?? t));
  const shown = new Set(out.map((s) => s.name));
  for (const s of snap.requested) {
    if (shown.has(s.name)) continue;
    out.push(plain(s));
    shown.add(s.name);
  }
  return out;
}

/** The part of a snapshot the executor's system prompt shows (R-E7 steps 1 and 4, R-G2). */
export function promptArtifacts(snap: TurnArtifacts) {
  const { role, workflow } = snap;
  return {
    role: { name: role.name, body: role.body },
    ...(workflow ? { workflow: { name: workflow.name, stages: workflow.stages, body: workflow.body } } : {}),
    composeSkills: (team: readonly Skill[]) => composeSkills(team, snap),
  };
}
