import type { Runtime } from '../runtime.ts';
import { getTicket } from '../tickets/ticket-store.ts';
import { ARTIFACT_KINDS, type Artifact, problemText, type SkillArtifact } from './artifact.ts';
import type { Layer } from './load-layer.ts';
import { type ProjectTree, projectLayer } from './project-layer.ts';
import { resolveLayers, type Winner } from './resolve-layers.ts';

/** One artifact as `orchestrator_read artifacts` shows it: which tier won, which it shadowed. */
export interface ArtifactRow {
  kind: Artifact['kind'];
  name: string;
  tier: Winner['tier'];
  shadowed: Winner['tier'][];
  file: string;
  description?: string;
  detail?: Record<string, unknown>;
}

const detailOf = (a: Artifact): Record<string, unknown> | undefined => {
  if (a.kind === 'role') return { profile: a.profile, skills: a.skills };
  if (a.kind === 'crew')
    return { role: a.role, skills: a.skills, topology: a.topology, workflow: a.workflow };
  if (a.kind === 'workflow') return { stages: a.stages };
  return undefined;
};

/**
 * The registry as new turns would resolve it (R-G2): bundled at the current revision, the team's
 * saved skills, and — for a ticket with a checkout — its trusted `.fleet/`. Each row names the
 * winning tier and the tiers it shadowed; refused files are listed under `problems`.
 */
export async function artifactsView(rt: Runtime, ticketId?: string, tree?: ProjectTree) {
  const { ctx } = rt;
  const at = await rt.artifacts.current();
  const team = (await rt.prompts.reader.read()).prompts.config.skills;
  const teamLayer: Pick<Layer, 'tier' | 'artifacts'> = {
    tier: 'team',
    artifacts: team.map(
      (s): SkillArtifact => ({
        kind: 'skill',
        name: s.name,
        body: s.text,
        file: `team settings: skill ${s.name}`,
        ...(s.description ? { description: s.description } : {}),
      }),
    ),
  };
  const ticket = ticketId ? await getTicket(ctx, ticketId) : undefined;
  const project = ticket && tree ? await projectLayer(tree, ctx.config, at.reserved) : undefined;
  const res = resolveLayers([at.bundled, teamLayer, ...(project ? [project] : [])]);
  const rows: ArtifactRow[] = ARTIFACT_KINDS.flatMap((kind) =>
    [...(res[kind] as Map<string, Winner>).values()].map((w) => {
      const detail = detailOf(w.artifact);
      return {
        kind,
        name: w.artifact.name,
        tier: w.tier,
        shadowed: w.shadowed,
        file: w.artifact.file,
        ...(w.artifact.description ? { description: w.artifact.description } : {}),
        ...(detail ? { detail } : {}),
      };
    }),
  );
  return {
    revision: at.revision,
    trust: {
      project_skills: ctx.config.TRUST_PROJECT_SKILLS,
      project_workflows: ctx.config.TRUST_PROJECT_WORKFLOWS,
    },
    built_in_skills: [...at.reserved],
    ...(ticket ? { ticket: { id: ticket.id, crew: ticket.crew ?? null } } : {}),
    artifacts: rows,
    problems: (project?.problems ?? []).map(problemText),
  };
}
