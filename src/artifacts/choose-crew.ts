import type { Crew, Profile, Topology } from './artifact.ts';
import { type Resolution, type Winner, winnerOf } from './resolve-layers.ts';
import type { CrewSource, TieredSkill, TurnArtifacts } from './turn-snapshot.ts';

export interface CrewWanted {
  name: string;
  from: CrewSource;
}

/**
 * The turn's artifacts from a resolution (R-G2): the wanted crew (a routing decision's or a
 * policy rule's), else `default` — which a trusted project's `.fleet/crews/default.crew.md`
 * shadows — else the bundled default in `fallback`. A crew whose role or workflow does not
 * resolve is not run half-built: the next candidate is used and the problem recorded.
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
    if (crew && !why) return build(r, crew, from, fallback, { ...meta, problems });
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

const RANK: Record<Profile, number> = { explorer: 0, reviewer: 1, worker: 2 };

/**
 * Trust never authorizes a profile (issue 30, F-13, R-G4): a role the bundled tier defines as
 * read-only stays read-only, and without peers, whatever a trusted project's role or crew of that
 * name says (`profile: worker`, `topology: mesh`). A refused widening is recorded as a problem.
 */
function bounded(
  role: Winner<'role'>,
  crew: Winner<'crew'>,
  bundled: Resolution,
  problems: string[],
): { profile: Profile; topology: Topology } {
  const wanted = { profile: role.artifact.profile, topology: crew.artifact.topology };
  const floor = winnerOf(bundled, 'role', role.artifact.name)?.artifact.profile;
  if (!floor || floor === 'worker') return wanted;
  const profile = RANK[wanted.profile] > RANK[floor] ? floor : wanted.profile;
  if (profile !== wanted.profile)
    problems.push(
      `${role.artifact.file}: profile "${wanted.profile}" refused: the bundled role "${role.artifact.name}" is ${floor}, and trust never widens a profile`,
    );
  const topology = wanted.topology === 'mesh' && crew.tier !== 'bundled' ? 'hub' : wanted.topology;
  if (topology !== wanted.topology)
    problems.push(
      `${crew.artifact.file}: topology "mesh" refused: the bundled role "${role.artifact.name}" is ${floor}, and trust never gives it peers`,
    );
  return { profile, topology };
}

function build(
  r: Resolution,
  crew: Winner<'crew'>,
  from: CrewSource,
  bundled: Resolution,
  meta: { revision: number; reserved: ReadonlySet<string>; problems: string[] },
): TurnArtifacts {
  const c = crew.artifact;
  const role = winnerOf(r, 'role', c.role)!;
  const { profile, topology } = bounded(role, crew, bundled, meta.problems);
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
