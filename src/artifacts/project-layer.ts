import type { Config } from '../config.ts';
import { type ArtifactKind, KIND_FOLDERS } from './artifact.ts';
import { folderFiles } from './folder-files.ts';
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
 * The ticket's repository as the host hands it over (`executor/workspace/project-tree.ts`): this
 * layer only reads what it is given and never reaches into a checkout itself.
 */
export interface ProjectTree {
  /** Whether the ticket's checkout exists yet. */
  exists(): Promise<boolean>;
  /** The base branch's committed files, or undefined when they cannot be read. */
  files(): Promise<LayerFiles | undefined>;
}

/**
 * The trusted part of the project's `.fleet/{roles,skills,workflows,crews}/` for the ticket, read
 * from the base branch's committed tree (issue 13 "Untrusted checkout content"): what the
 * executor wrote into its working tree and what a fork's PR brings never count. Empty before the
 * checkout exists. A project skill may not take a built-in skill's name: those are the runtime's
 * (R-F4).
 */
export async function projectLayer(
  tree: ProjectTree,
  trust: Trust,
  reserved: ReadonlySet<string>,
): Promise<Layer> {
  const kinds = trustedKinds(trust);
  if (!kinds.length || !(await tree.exists())) return emptyLayer();
  const files = await tree.files();
  if (!files) {
    const layer = emptyLayer();
    layer.problems.push({ file: '.fleet', code: 'unreadable', message: 'the base branch could not be read' });
    return layer;
  }
  return withoutReserved(await loadLayer(layerSpec(kinds, files)), reserved);
}

/** The same from a directory on disk (tests, tools that inspect a folder); links are not followed. */
export async function projectLayerAt(
  dir: string,
  kinds: readonly ArtifactKind[],
  reserved: ReadonlySet<string>,
): Promise<Layer> {
  return withoutReserved(await loadLayer(layerSpec(kinds, folderFiles(dir))), reserved);
}

function layerSpec(kinds: readonly ArtifactKind[], files: LayerFiles) {
  const folders = Object.fromEntries(kinds.map((k) => [k, `.fleet/${KIND_FOLDERS[k]}`]));
  return { tier: 'project' as const, root: '', folders, files };
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
