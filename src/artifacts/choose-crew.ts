import type { Crew } from './artifact.ts';
import { bounded, bundledCaps, type ProfileCap } from './profile-floor.ts';
import { type Resolution, type Winner, winnerOf } from './resolve-layers.ts';
import type { CrewSource, TieredSkill, TurnArtifacts } from './turn-snapshot.ts';

export interface CrewWanted {
  name: string;
  from: CrewSource;
  /** Limits besides the bundled tier's: an inferred ticket's policy rules (F-12). */
  caps?: ProfileCap[];
}

/**
 * The turn's artifacts from a resolution (R-G2): the wanted crew (a routing decision's or a
 * policy rule's), else `default` — which a trusted project's `.fleet/crews/default.crew.md`
 * shadows — else the bundled default in `fallback`. A crew whose role or workflow does not
 * resolve is not run half-built: the next candidate is used and the problem recorded. Whichever
 * runs, trust never widens it past the bundled crew of the wanted name (F-13, `bundledCaps`).
 */
export function chooseCrew(
  res: Resolution,
  fallback: Resolution,
  want: CrewWanted,
  meta: { revision: number; reserved: ReadonlySet<string>; problems: string[] },
): TurnArtifacts {
  const problems = [...meta.problems];
  const candidates: [Resolution, string, CrewSource][] = [
    [res, want.name, want.from],
    ...(want.name === 'default' ? [] : [[res, 'default', 'default'] as [Resolution, string, CrewSource]]),
    [fallback, 'default', 'default'],
  ];
  for (const [r, name, from] of candidates) {
    const crew = winnerOf(r, 'crew', name);
    const why = crew ? brokenBy(r, crew.artifact) : `crew "${name}" does not exist`;
    if (crew && !why) return build(r, crew, from, { ...meta, problems, caps: capsFor(fallback, crew, want) });
    if (why) problems.push(why);
  }
  throw new Error('the bundled default crew does not resolve');
}

function brokenBy(r: Resolution, crew: Crew): string | undefined {
  if (!winnerOf(r, 'role', crew.role)) return `${crew.file}: role "${crew.role}" does not exist`;
  if (crew.workflow && !winnerOf(r, 'workflow', crew.workflow))
    return `${crew.file}: workflow "${crew.workflow}" does not exist (or project workflows are not trusted)`;
  return undefined;
}

/** What holds the crew that runs: the bundled role and crews of its names and the wanted one's, and the policy's. */
function capsFor(bundled: Resolution, crew: Winner<'crew'>, want: CrewWanted): ProfileCap[] {
  return [...bundledCaps(bundled, crew.artifact.role, [crew.artifact.name, want.name]), ...(want.caps ?? [])];
}

function build(
  r: Resolution,
  crew: Winner<'crew'>,
  from: CrewSource,
  meta: { revision: number; reserved: ReadonlySet<string>; problems: string[]; caps: ProfileCap[] },
): TurnArtifacts {
  const c = crew.artifact;
  const role = winnerOf(r, 'role', c.role)!;
  const { profile, topology } = bounded(role, crew, meta.caps, meta.problems);
  const flow = c.workflow ? winnerOf(r, 'workflow', c.workflow) : undefined;
  const requested: TieredSkill[] = [];
  for (const name of new Set([...role.artifact.skills, ...c.skills])) {
    if (meta.reserved.has(name)) continue; // a built-in skill is always in the prompt already
    const s = winnerOf(r, 'skill', name);
    if (s) requested.push(tiered(s));
    else meta.problems.push(`${c.file}: skill "${name}" does not exist`);
  }
  const project = [...r.skill.values()].filter((s) => s.tier === 'project').map(tiered);
  return {
    revision: meta.revision,
    crew: { name: c.name, tier: crew.tier, from },
    role: { name: c.role, tier: role.tier, profile, body: role.artifact.body },
    topology,
    ...(flow
      ? {
          workflow: {
            name: flow.artifact.name,
            tier: flow.tier,
            stages: flow.artifact.stages,
            body: flow.artifact.body,
          },
        }
      : {}),
    requested,
    project,
    problems: meta.problems,
  };
}

function tiered(s: Winner<'skill'>): TieredSkill {
  const { name, description, body } = s.artifact;
  return { name, text: body, tier: s.tier, ...(description ? { description } : {}) };
}
