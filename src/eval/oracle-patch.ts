import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskRepo } from './task.ts';
import { gitIn, writeStartTree } from './task-repo.ts';

/**
 * The oracle's edits (issue 29 `--oracle`): `solution.patch` turned into calls of the executor's
 * own file tools — `read_file` before changing a file, one `edit_file` per hunk where the hunk's
 * old text occurs once, else `write_file` with the whole new file; a deleted file is `git rm`
 * through `run_command`. What the calls produce is checked against `git apply` of the patch.
 */

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

interface FilePatch {
  path: string;
  kind: 'add' | 'modify' | 'delete';
  hunks: { old: string; new: string }[];
  /** A hunk edit_file cannot express (no newline at the end of a file). */
  plain: boolean;
}

/** Splits a unified diff (`git diff` output) into files and hunks. */
function parsePatch(patch: string): FilePatch[] {
  const files: FilePatch[] = [];
  let file: FilePatch | undefined;
  let hunk: { old: string[]; new: string[] } | undefined;
  const close = () => {
    if (file && hunk) file.hunks.push({ old: lines(hunk.old), new: lines(hunk.new) });
    hunk = undefined;
  };
  for (const line of patch.split('\n')) {
    const head = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (head) {
      close();
      file = { path: head[2] as string, kind: 'modify', hunks: [], plain: true };
      files.push(file);
    } else if (!file) {
    } else if (line.startsWith('new file mode')) file.kind = 'add';
    else if (line.startsWith('deleted file mode')) file.kind = 'delete';
    else if (line.startsWith('@@')) {
      close();
      hunk = { old: [], new: [] };
    } else if (hunk && line.startsWith('\\')) file.plain = false;
    else if (hunk && line.startsWith('-')) hunk.old.push(line.slice(1));
    else if (hunk && line.startsWith('+')) hunk.new.push(line.slice(1));
    else if (hunk && line.startsWith(' ')) {
      hunk.old.push(line.slice(1));
      hunk.new.push(line.slice(1));
    } else if (hunk && line === '') {
      // A blank context line some editors strip of its space; the end of the patch otherwise.
    }
  }
  close();
  return files;
}

const lines = (ls: string[]) => (ls.length ? `${ls.join('\n')}\n` : '');

/** The calls that make the task's start tree what `patch` makes it, in order. Throws when the patch does not apply. */
export async function oracleEdits(repo: TaskRepo, patch: string): Promise<ToolCall[]> {
  const work = mkdtempSync(join(tmpdir(), 'switchyard-oracle-'));
  try {
    const before = join(work, 'before');
    const after = join(work, 'after');
    await writeStartTree(repo, before, work);
    cpSync(before, after, { recursive: true, verbatimSymlinks: true });
    const patchFile = join(work, 'oracle.patch');
    writeFileSync(patchFile, patch);
    await gitIn(after, work, 'init', '-q');
    await gitIn(after, work, 'apply', '--whitespace=nowarn', patchFile);
    return parsePatch(patch).flatMap((f) => callsFor(f, before, after));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function callsFor(f: FilePatch, repoDir: string, applied: string): ToolCall[] {
  const call = (name: string, args: Record<string, unknown>): ToolCall => ({ name, arguments: args });
  if (f.kind === 'delete')
    return [call('run_command', { command: `git rm -q -- '${f.path.replaceAll("'", "'\\''")}'` })];
  const after = readFileSync(join(applied, f.path), 'utf8');
  if (f.kind === 'add' || !existsSync(join(repoDir, f.path)))
    return [call('write_file', { path: f.path, content: after })];
  let text = readFileSync(join(repoDir, f.path), 'utf8');
  const edits: ToolCall[] = [];
  for (const h of f.hunks) {
    const at = h.old ? text.indexOf(h.old) : -1;
    if (!f.plain || at < 0 || h.old.trim() === '' || text.indexOf(h.old, at + 1) >= 0 || h.old === h.new) {
      edits.length = 0;
      text = '';
      break;
    }
    text = text.slice(0, at) + h.new + text.slice(at + h.old.length);
    edits.push(call('edit_file', { path: f.path, old: h.old, new: h.new }));
  }
  const read = call('read_file', { path: f.path });
  if (edits.length && text === after) return [read, ...edits];
  return [read, call('write_file', { path: f.path, content: after })];
}
