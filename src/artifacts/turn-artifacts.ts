import type { Ctx } from '../context.ts';
import type { Runtime } from '../runtime.ts';
import { parseRecord } from '../store/parse-record.ts';
import type { Ticket } from '../tickets/ticket.ts';
import { updateTicket } from '../tickets/ticket-store.ts';
import { problemText } from './artifact.ts';
import type { BundledAt } from './artifact-source.ts';
import { type CrewWanted, chooseCrew } from './choose-crew.ts';
import type { Layer } from './load-layer.ts';
import { policyCaps } from './profile-floor.ts';
import { type ProjectTree, projectLayer } from './project-layer.ts';
import { resolveLayers } from './resolve-layers.ts';
import { type TurnArtifacts, TurnArtifactsSchema } from './turn-snapshot.ts';

const WEEK_S = 7 * 86400;

/**
 * The crew the ticket asked for: one chosen by routing or a policy rule sticks; else `default`.
 * An inferred ticket is held to what its rules allow (F-12, `policyCaps`).
 */
export function wantedCrew(ticket: Ticket): CrewWanted {
  const c = ticket.crew;
  const caps = policyCaps(ticket.inferred?.rules);
  const want: CrewWanted =
    c && c.from !== 'default' ? { name: c.name, from: c.from } : { name: 'default', from: 'default' };
  return caps.length ? { ...want, caps } : want;
}

function resolveWith(at: BundledAt, project: Layer, ticket: Ticket): TurnArtifacts {
  return chooseCrew(resolveLayers([at.bundled, project]), resolveLayers([at.bundled]), wantedCrew(ticket), {
    revision: at.revision,
    reserved: at.reserved,
    problems: project.problems.map(problemText),
  });
}

async function recordCrew(ctx: Ctx, ticketId: string, snap: TurnArtifacts) {
  await updateTicket(ctx, ticketId, {
    crew: {
      name: snap.crew.name,
      from: snap.crew.from,
      role: snap.role.name,
      profile: snap.role.profile,
      topology: snap.topology,
      revision: snap.revision,
    },
  });
}

/**
 * Resolves the artifacts an executor turn runs with, once, at its start (R-G5): the bundled tier
 * at the current registry revision and the trusted `.fleet/` of the ticket's repository, read from
 * its base branch (issue 13) through the tree the host hands over. The result is stored by turn id (SET NX), so a retried or resumed
 * turn keeps the snapshot it started with even after a reload, and is recorded on the ticket with
 * the revision used. Without a checkout yet, the project tier is marked pending (`withProjectTier`).
 * A stored snapshot that fails its schema throws `StoredRecordError` (issue 20), never cast.
 */
export async function resolveTurnArtifacts(rt: Runtime, ticket: Ticket, turnId: string, tree: ProjectTree) {
  const { ctx } = rt;
  const key = ctx.keys.turnArtifacts(turnId);
  const held = await ctx.redis.get(key);
  if (held) return parseRecord(ctx, TurnArtifactsSchema, held, key);
  const at = await rt.artifacts.current();
  const pending = !(await tree.exists());
  const snap = resolveWith(at, await projectLayer(tree, ctx.config, at.reserved), ticket);
  if (pending) snap.projectPending = true;
  if ((await ctx.redis.set(key, JSON.stringify(snap), 'EX', WEEK_S, 'NX')) !== 'OK') {
    const raced = await ctx.redis.get(key);
    if (raced) return parseRecord(ctx, TurnArtifactsSchema, raced, key);
  }
  if (snap.problems.length)
    ctx.log.warn({ ticketId: ticket.id, problems: snap.problems }, 'artifact problems');
  await recordCrew(ctx, ticket.id, snap);
  return snap;
}

/**
 * Issue 15: the project tier is in force from the first model request after the checkout exists,
 * in the same turn. Called before every request; while the tier is pending and a checkout now
 * exists, the turn is resolved again with it, at the revision it started with (R-G5: a reload
 * still waits for the next turn). A project crew that would change the turn's profile or topology
 * is held for the next turn — this turn's tools were fixed at its start, and prose never widens
 * what code allows (R-G4) — and its skills join at once. Stored under the turn id, so a resumed
 * turn continues with it.
 */
export async function withProjectTier(
  rt: Runtime,
  ticket: Ticket,
  turnId: string,
  snap: TurnArtifacts,
  tree: ProjectTree,
) {
  const { ctx } = rt;
  if (!snap.projectPending || !(await tree.exists())) return snap;
  const at = await rt.artifacts.current();
  const project = await projectLayer(tree, ctx.config, at.reserved);
  const fresh = at.revision === snap.revision ? resolveWith(at, project, ticket) : undefined;
  let next: TurnArtifacts;
  if (fresh && fresh.role.profile === snap.role.profile && fresh.topology === snap.topology) {
    next = { ...fresh, crew: { ...fresh.crew } };
    await recordCrew(ctx, ticket.id, next);
  } else {
    next = skillsOnly(snap, project, fresh);
  }
  await ctx.redis.set(ctx.keys.turnArtifacts(turnId), JSON.stringify(next), 'EX', WEEK_S);
  return next;
}

/** The start's crew, role and workflow, with the project's skills shadowing theirs by name. */
function skillsOnly(snap: TurnArtifacts, project: Layer, fresh: TurnArtifacts | undefined): TurnArtifacts {
  const skills = project.artifacts.flatMap((a) =>
    a.kind === 'skill'
      ? [
          {
            name: a.name,
            text: a.body,
            tier: 'project' as const,
            ...(a.description ? { description: a.description } : {}),
          },
        ]
      : [],
  );
  const byName = new Map(skills.map((s) => [s.name, s]));
  const held = fresh
    ? [
        `project crew "${fresh.crew.name}" (${fresh.role.profile}, ${fresh.topology}) applies from the next turn: this turn's tools were fixed at its start`,
      ]
    : [];
  const { projectPending: _done, ...rest } = snap;
  return {
    ...rest,
    requested: snap.requested.map((s) => byName.get(s.name) ?? s),
    project: skills,
    problems: [...snap.problems, ...project.problems.map(problemText), ...held],
  };
}
