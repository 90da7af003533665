import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ctx } from '../context.ts';
import type { Skill } from '../prompts/parse-skill.ts';
import type { ArtifactKind, ArtifactProblem, SkillArtifact } from './artifact.ts';
import { artifactsRevision, bumpArtifactsRevision } from './artifacts-revision.ts';
import { type Layer, loadLayer } from './load-layer.ts';
import { resolveLayers, winnerOf } from './resolve-layers.ts';

/** Where the bundled tier lives: the repository's own folders. */
export interface BundledDirs {
  root: string;
  folders: Record<ArtifactKind, string>;
}

/**
 * `roles/`, `crews/`, `workflows/` and `skills/library/`. Bundled skills a role may request live
 * in `skills/library/`: `skills/*.skill.md` are the built-in skills every executor always gets,
 * whose names are reserved (R-F4).
 */
export function defaultBundledDirs(): BundledDirs {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  return {
    root,
    folders: { role: 'roles', skill: join('skills', 'library'), workflow: 'workflows', crew: 'crews' },
  };
}

/** The bundled tier at one registry revision. */
export interface BundledAt {
  revision: number;
  bundled: Layer;
  /** The built-in skills' names: always in the prompt, never shadowed. */
  reserved: ReadonlySet<string>;
}

/** The process's view of the bundled tier, shared by every worker process through the revision. */
export interface ArtifactSource {
  /** The bundled tier at the registry's current revision: re-read once a reload moved it (R-G5). */
  current(): Promise<BundledAt>;
  /** R-G5: re-reads the artifacts for turns that start from now on; running turns keep theirs. */
  reload(): Promise<{ revision: number; problems: ArtifactProblem[] }>;
}

type Deps = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/**
 * Loads the bundled tier once at start-up; a broken bundled file or a `default` crew that does
 * not resolve stops start-up, like a missing built-in section. A reload that finds a broken file
 * keeps the last good tier and reports the problem instead.
 */
export async function createArtifactSource(
  deps: Deps,
  builtinSkills: readonly Skill[],
  dirs: BundledDirs = defaultBundledDirs(),
): Promise<ArtifactSource> {
  const reserved = new Set(builtinSkills.map((s) => s.name));
  const read = async (): Promise<Layer> => {
    const layer = await loadLayer({ tier: 'bundled', root: dirs.root, folders: dirs.folders });
    layer.artifacts.push(...builtinSkills.map(asArtifact));
    if (!winnerOf(resolveLayers([layer]), 'crew', 'default'))
      layer.problems.push({ file: dirs.folders.crew, code: 'unresolved', message: 'no default crew' });
    return layer;
  };
  const first = await read();
  if (first.problems.length) throw new Error(`bundled artifacts: ${JSON.stringify(first.problems)}`);
  let state: BundledAt = { revision: await artifactsRevision(deps), bundled: first, reserved };
  const adopt = async (revision: number): Promise<ArtifactProblem[]> => {
    const layer = await read();
    if (layer.problems.length)
      deps.log.error({ problems: layer.problems }, 'artifact reload kept the last good tier');
    if (revision >= state.revision)
      state = { revision, bundled: layer.problems.length ? state.bundled : layer, reserved };
    return layer.problems;
  };
  return {
    async current() {
      const revision = await artifactsRevision(deps);
      if (revision !== state.revision) await adopt(revision);
      return state;
    },
    async reload() {
      const revision = await bumpArtifactsRevision(deps);
      return { revision, problems: await adopt(revision) };
    },
  };
}

const asArtifact = (s: Skill): SkillArtifact => ({
  kind: 'skill',
  name: s.name,
  ...(s.description ? { description: s.description } : {}),
  body: s.text,
  file: `skills/${s.name}.skill.md`,
});
