import type { Config } from '../config.ts';
import type { Ctx } from '../context.ts';
import { loadWorkspace } from '../executor/workspace/workspace.ts';
import { type ArtifactKind, KIND_FOLDERS } from './artifact.ts';
import { type Layer, loadLayer } from './load-layer.ts';

type Trust = Pick<Config, 'TRUST_PROJECT_SKILLS' | 'TRUST_PROJECT_WORKFLOWS'>;

/**
 * R-G2 trust, decided at start-up from the configuration: project roles, skills and crews only
 * with `TRUST_PROJECT_SKILLS`; project workflows with `TRUST_PROJECT_WORKFLOWS`. No artifact and
 * no save can change it.
 */
export function trustedKinds(trust: Trust): ArtifactKind[] {
  return [
    ...(trust.TRUST_PROJECT_SKILLS ? (['role', 'skill', 'crew'] as const) : []),
    ...(trust.TRUST_PROJECT_WORKFLOWS ? (['workflow'] as const) : []),
  ];
}

/**
 * The trusted part of `<checkout>/.fleet/{roles,skills,workflows,crews}/` in the ticket's
 * checkout, or an empty layer before the checkout exists (the first turn works without it). A
 * project skill may not take a built-in skill's name: those are the runtime's (R-F4).
 */
export async function projectLayer(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'config'>,
  ticketId: string,
  reserved: ReadonlySet<string>,
): Promise<Layer> {
  const ws = await loadWorkspace(ctx, ticketId);
  const kinds = trustedKinds(ctx.config);
  if (!ws || !kinds.length) return { tier: 'project', artifacts: [], problems: [] };
  return projectLayerAt(ws.dir, kinds, reserved);
}

/** The same for a checkout directory (tests, the registry view). */
export async function projectLayerAt(
  dir: string,
  kinds: readonly ArtifactKind[],
  reserved: ReadonlySet<string>,
): Promise<Layer> {
  const folders = Object.fromEntries(kinds.map((k) => [k, `.fleet/${KIND_FOLDERS[k]}`]));
  const layer = await loadLayer({ tier: 'project', root: dir, folders, confined: true });
  const kept = layer.artifacts.filter((a) => !(a.kind === 'skill' && reserved.has(a.name)));
  for (const a of layer.artifacts.filter((x) => !kept.includes(x))) {
    layer.problems.push({
      file: a.file,
      code: 'reserved_name',
      message: `"${a.name}" is a built-in skill's name; the runtime's skill stays (R-F4)`,
    });
  }
  return { ...layer, artifacts: kept };
}
