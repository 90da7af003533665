import type { Config } from '../config.ts';
import type { Ctx } from '../context.ts';
import { listTree, readTreeFile, trustedCommit } from '../executor/workspace/trusted-tree.ts';
import { loadWorkspace, type Workspace } from '../executor/workspace/workspace.ts';
import { type ArtifactKind, KIND_FOLDERS } from './artifact.ts';
import { type Layer, type LayerFiles, loadLayer } from './load-layer.ts';

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

const emptyLayer = (): Layer => ({ tier: 'project', artifacts: [], problems: [] });

/**
 * The trusted part of the project's `.fleet/{roles,skills,workflows,crews}/` for the ticket, read
 * from the base branch's committed tree in the host's mirror (issue 13 "Untrusted checkout
 * content"): what the executor wrote into its working tree and what a fork's PR brings never
 * count. Empty before the checkout exists. A project skill may not take a built-in skill's name:
 * those are the runtime's (R-F4).
 */
export async function projectLayer(
  ctx: Ctx,
  ticketId: string,
  reserved: ReadonlySet<string>,
): Promise<Layer> {
  const ws = await loadWorkspace(ctx, ticketId);
  const kinds = trustedKinds(ctx.config);
  if (!ws || !kinds.length) return emptyLayer();
  const commit = await trustedCommit(ctx, ws);
  if (!commit) {
    const layer = emptyLayer();
    layer.problems.push({ file: '.fleet', code: 'unreadable', message: 'the base branch could not be read' });
    return layer;
  }
  return withoutReserved(await loadLayer(layerSpec(kinds, committedFiles(ctx, ws, commit))), reserved);
}

/** The same from a directory on disk (tests, tools that inspect a folder); links out are refused. */
export async function projectLayerAt(
  dir: string,
  kinds: readonly ArtifactKind[],
  reserved: ReadonlySet<string>,
): Promise<Layer> {
  return withoutReserved(await loadLayer({ ...layerSpec(kinds), root: dir, confined: true }), reserved);
}

function layerSpec(kinds: readonly ArtifactKind[], files?: LayerFiles) {
  const folders = Object.fromEntries(kinds.map((k) => [k, `.fleet/${KIND_FOLDERS[k]}`]));
  return { tier: 'project' as const, root: '', folders, ...(files ? { files } : {}) };
}

/** A commit's tree as a layer's files: regular files only, links and folders refused. */
function committedFiles(ctx: Ctx, ws: Workspace, commit: string): LayerFiles {
  const folders = new Map<string, ReturnType<typeof listTree>>();
  const entriesOf = (folder: string) => {
    let got = folders.get(folder);
    if (!got) {
      got = listTree(ctx, ws, commit, folder);
      folders.set(folder, got);
    }
    return got;
  };
  return {
    list: async (folder) => (await entriesOf(folder)).map((e) => e.name),
    async read(rel, maxBytes) {
      const slash = rel.lastIndexOf('/');
      const entries = await entriesOf(rel.slice(0, slash));
      const entry = entries.find((e) => e.name === rel.slice(slash + 1));
      return entry ? readTreeFile(ctx, ws, entry, maxBytes) : { ok: false, why: 'cannot be read' };
    },
  };
}

function withoutReserved(layer: Layer, reserved: ReadonlySet<string>): Layer {
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
