import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Artifact, ArtifactKind, ArtifactProblem, Tier } from './artifact.ts';
import { parseArtifact } from './parse-artifact.ts';

/** One tier's artifacts as read from disk, and the files it refused. */
export interface Layer {
  tier: Tier;
  artifacts: Artifact[];
  problems: ArtifactProblem[];
}

/** Where a layer's files come from when not the file system (a committed tree). */
export interface LayerFiles {
  /** The file names in `folder` (none when it is missing). */
  list(folder: string): Promise<string[]>;
  /** A file's text, or why it is refused. */
  read(rel: string, maxBytes: number): Promise<{ ok: true; text: string } | { ok: false; why: string }>;
}

export interface LayerSpec {
  tier: Tier;
  /** The folder paths are relative to this root (the product's own folders), unless `files` is given. */
  root: string;
  /** Folder of each kind to read; a kind left out is not loaded (R-G2 trust). */
  folders: Partial<Record<ArtifactKind, string>>;
  /** Read through this instead of the file system (a project's committed `.fleet/`, issue 13). */
  files?: LayerFiles;
}

/** A repository's `.fleet/` may not flood the prompt or the start of a turn. */
const MAX_FILES = 100;
const MAX_BYTES = 64 * 1024;

/**
 * Reads `<root>/<folder>/*.<kind>.md` for every kind of the spec. A missing folder is an empty
 * one; a bad file is a problem naming it and is skipped, the rest of the layer still loads.
 */
export async function loadLayer(spec: LayerSpec): Promise<Layer> {
  const layer: Layer = { tier: spec.tier, artifacts: [], problems: [] };
  for (const [kind, folder] of Object.entries(spec.folders) as [ArtifactKind, string][]) {
    const names = spec.files
      ? await spec.files.list(folder)
      : await readdir(join(spec.root, folder)).catch(() => [] as string[]);
    const files = names.filter((n) => n.endsWith(`.${kind}.md`)).sort();
    for (const name of files.slice(0, MAX_FILES)) {
      const rel = join(folder, name);
      const read = spec.files ? await spec.files.read(rel, MAX_BYTES) : await readFromDisk(spec, rel);
      if (!read.ok) {
        layer.problems.push({ file: rel, code: 'unreadable', message: read.why });
        continue;
      }
      const parsed = parseArtifact(kind, read.text, rel);
      if (parsed.ok) layer.artifacts.push(parsed.artifact);
      else layer.problems.push(...parsed.problems);
    }
    if (files.length > MAX_FILES)
      layer.problems.push({
        file: folder,
        code: 'unreadable',
        message: `only the first ${MAX_FILES} files load`,
      });
  }
  return layer;
}

async function readFromDisk(spec: LayerSpec, rel: string) {
  const abs = join(spec.root, rel);
  const size = (await stat(abs).catch(() => undefined))?.size;
  if (size === undefined) return { ok: false as const, why: 'cannot be read' };
  if (size > MAX_BYTES) return { ok: false as const, why: `is over ${MAX_BYTES} bytes` };
  return { ok: true as const, text: await readFile(abs, 'utf8') };
}
