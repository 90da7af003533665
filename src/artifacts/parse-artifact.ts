import { basename } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { normalizeText } from '../prompts/text.ts';
import type { ArtifactKind, ArtifactOf, ArtifactProblem } from './artifact.ts';
import { FRONT_MATTER } from './artifact-schemas.ts';
import { reservedBlockProblems } from './reserved-blocks.ts';

export type Parsed<K extends ArtifactKind> =
  | { ok: true; artifact: ArtifactOf<K> }
  | { ok: false; problems: ArtifactProblem[] };

const SPLIT = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/;

/**
 * Parses one `<name>.<kind>.md` (R-G1): YAML front matter checked by a strict schema, the name
 * equal to the file's, and a body free of reserved blocks (R-G3). Every problem is reported at
 * once, each naming the file (and the line, where there is one).
 */
export function parseArtifact<K extends ArtifactKind>(kind: K, source: string, file: string): Parsed<K> {
  const text = source.replace(/\r\n?/g, '\n');
  const split = SPLIT.exec(text);
  if (!split) return fail(file, 1, 'front_matter', 'starts with YAML front matter between --- lines');
  const doc = parseDocument(split[1] ?? '');
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = (yamlError.linePos?.[0].line ?? 0) + 1;
    return fail(file, line, 'front_matter', `front matter is not valid YAML: ${yamlError.message}`);
  }
  const meta = FRONT_MATTER[kind].safeParse(doc.toJS() ?? {});
  if (!meta.success) return { ok: false, problems: schemaProblems(meta.error, file) };
  const problems: ArtifactProblem[] = [];
  const stem = basename(file).slice(0, -`.${kind}.md`.length);
  if (meta.data.name !== stem) {
    const at = (split[1] ?? '').split('\n').findIndex((l) => /^name\s*:/.test(l));
    problems.push({
      file,
      line: at + 2,
      code: 'name_mismatch',
      message: `name "${meta.data.name}" must match the file name "${stem}"`,
    });
  }
  const rawBody = text.slice(split[0].length);
  const firstLine = split[0].split('\n').length;
  if (kind !== 'crew') problems.push(...reservedBlockProblems(rawBody, file, firstLine));
  if (problems.length) return { ok: false, problems };
  const artifact = { kind, ...meta.data, body: normalizeText(rawBody), file };
  if (artifact.description === undefined) delete artifact.description;
  return { ok: true, artifact: artifact as unknown as ArtifactOf<K> };
}

function fail(file: string, line: number, code: ArtifactProblem['code'], message: string) {
  return { ok: false as const, problems: [{ file, line, code, message }] };
}

/** Unknown keys one problem each, naming the key; anything else names the field. */
function schemaProblems(error: z.ZodError, file: string): ArtifactProblem[] {
  return error.issues.flatMap((issue): ArtifactProblem[] => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({
        file,
        code: 'unknown_key',
        message: `unknown front matter key "${at ? `${at}.` : ''}${k}"`,
      }));
    }
    return [{ file, code: 'invalid_value', message: `${at || 'front matter'}: ${issue.message}` }];
  });
}
