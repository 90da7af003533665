import type { Profile, Topology } from './artifact.ts';
import { type Resolution, type Winner, winnerOf } from './resolve-layers.ts';

/**
 * The most a turn's profile may be, and what sets it (`what`, for the problem recorded when it
 * refuses a widening, on the file that asked for it: `on`): the bundled tier (`trust`, F-13) or
 * the policy rules an inferred ticket matched (`policy`, F-12).
 */
export interface ProfileCap {
  profile: Profile;
  on: 'role' | 'crew';
  what: string;
  by: 'trust' | 'policy';
}

const RANK: Record<Profile, number> = { explorer: 0, reviewer: 1, worker: 2 };

const BECAUSE = {
  trust: { profile: 'and trust never widens a profile', peers: 'and trust never gives it peers' },
  policy: { profile: 'and a ticket nobody asked for stays within them', peers: 'and gets no peers' },
} as const;

/**
 * The bundled tier's read-only limits on a crew (issue 30 and 50, F-13, R-G4): the bundled role of
 * the role's name, and the bundled crew of each wanted name (its role's profile). A trusted
 * project's `review` crew that names `role: worker`, or a new role with `profile: worker`, is
 * still held to the bundled `review` crew's reviewer: someone who asked for a review never gets
 * pushed branches. A name the bundled tier does not define sets no limit.
 */
export function bundledCaps(
  bundled: Resolution,
  roleName: string,
  crewNames: readonly string[],
): ProfileCap[] {
  const caps: ProfileCap[] = [];
  const role = winnerOf(bundled, 'role', roleName)?.artifact.profile;
  if (role)
    caps.push({ profile: role, on: 'role', by: 'trust', what: `the bundled role "${roleName}" is ${role}` });
  for (const name of new Set(crewNames)) {
    const crew = winnerOf(bundled, 'crew', name);
    const profile = crew && winnerOf(bundled, 'role', crew.artifact.role)?.artifact.profile;
    if (profile)
      caps.push({ profile, on: 'crew', by: 'trust', what: `the bundled crew "${name}" is ${profile}` });
  }
  return caps;
}

/**
 * What the policy rules of an inferred ticket allow (F-12): a ticket nobody asked for does at most
 * what the widest of its rules names (`profile`; a rule naming none allows its crew's). None for a
 * ticket someone asked for.
 */
export function policyCaps(rules: readonly { id: string; profile?: Profile }[] | undefined): ProfileCap[] {
  if (!rules?.length || rules.some((r) => !r.profile)) return [];
  const widest = rules.reduce(
    (a, r) => (RANK[r.profile ?? 'worker'] > RANK[a] ? (r.profile ?? 'worker') : a),
    'explorer' as Profile,
  );
  const ids = rules.map((r) => r.id).join(', ');
  return [
    {
      profile: widest,
      on: 'role',
      by: 'policy',
      what: `this ticket was inferred under ${ids}, which allow ${widest}`,
    },
  ];
}

/**
 * The profile and topology a crew runs with under its caps (R-G4): the narrowest cap wins, a
 * refused widening is recorded as a problem, and a crew held read-only gets no peers unless it is
 * the bundled crew itself (mesh becomes hub).
 */
export function bounded(
  role: Winner<'role'>,
  crew: Winner<'crew'>,
  caps: readonly ProfileCap[],
  problems: string[],
): { profile: Profile; topology: Topology } {
  const wanted = { profile: role.artifact.profile, topology: crew.artifact.topology };
  const tight = caps
    .filter((c) => c.profile !== 'worker')
    .reduce<ProfileCap | undefined>((a, c) => (!a || RANK[c.profile] < RANK[a.profile] ? c : a), undefined);
  if (!tight) return wanted;
  const profile = RANK[wanted.profile] > RANK[tight.profile] ? tight.profile : wanted.profile;
  const blamed = (on: ProfileCap['on']) => (on === 'role' ? role : crew).artifact.file;
  if (profile !== wanted.profile)
    problems.push(
      `${blamed(tight.on)}: profile "${wanted.profile}" refused: ${tight.what}, ${BECAUSE[tight.by].profile}`,
    );
  const topology = wanted.topology === 'mesh' && crew.tier !== 'bundled' ? 'hub' : wanted.topology;
  if (topology !== wanted.topology)
    problems.push(
      `${crew.artifact.file}: topology "mesh" refused: ${tight.what}, ${BECAUSE[tight.by].peers}`,
    );
  return { profile, topology };
}
