import type { Runtime } from '../runtime.ts';
import type { Ticket } from '../tickets/ticket.ts';
import { updateTicket } from '../tickets/ticket-store.ts';
import { problemText } from './artifact.ts';
import { type CrewWanted, chooseCrew } from './choose-crew.ts';
import { projectLayer } from './project-layer.ts';
import { resolveLayers } from './resolve-layers.ts';
import type { TurnArtifacts } from './turn-snapshot.ts';

const WEEK_S = 7 * 86400;

/** The crew the ticket asked for: one chosen by routing or a policy rule sticks; else `default`. */
export function wantedCrew(ticket: Ticket): CrewWanted {
  const c = ticket.crew;
  return c && c.from !== 'default' ? { name: c.name, from: c.from } : { name: 'default', from: 'default' };
}

/**
 * Resolves the artifacts an executor turn runs with, once, at its start (R-G5): the bundled tier
 * at the current registry revision and the trusted `.fleet/` of the ticket's checkout. The result
 * is stored by turn id (SET NX), so a retried or resumed turn keeps the snapshot it started with
 * even after a reload, and is recorded on the ticket with the revision used.
 */
export async function resolveTurnArtifacts(rt: Runtime, ticket: Ticket, turnId: string) {
  const { ctx } = rt;
  const key = ctx.keys.turnArtifacts(turnId);
  const held = await ctx.redis.get(key);
  if (held) return JSON.parse(held) as TurnArtifacts;
  const at = await rt.artifacts.current();
  const project = await projectLayer(ctx, ticket.id, at.reserved);
  const snap = chooseCrew(
    resolveLayers([at.bundled, project]),
    resolveLayers([at.bundled]),
    wantedCrew(ticket),
    {
      revision: at.revision,
      reserved: at.reserved,
      problems: project.problems.map(problemText),
    },
  );
  if ((await ctx.redis.set(key, JSON.stringify(snap), 'EX', WEEK_S, 'NX')) !== 'OK') {
    const raced = await ctx.redis.get(key);
    if (raced) return JSON.parse(raced) as TurnArtifacts;
  }
  if (snap.problems.length)
    ctx.log.warn({ ticketId: ticket.id, problems: snap.problems }, 'artifact problems');
  await updateTicket(ctx, ticket.id, {
    crew: {
      name: snap.crew.name,
      from: snap.crew.from,
      role: snap.role.name,
      profile: snap.role.profile,
      topology: snap.topology,
      revision: snap.revision,
    },
  });
  return snap;
}
