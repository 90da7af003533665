import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { localGit } from '../sandbox/local-git.ts';
import type { TurnScope } from '../turn-scope.ts';
import { readCheckoutFile, writeCheckoutFile } from '../workspace/checkout-file.ts';
import { confinePath } from '../workspace/confine-path.ts';
import { inWorkspace } from '../workspace/work-gate.ts';

const READ_CAP = 60_000;
const LIST_CAP = 500;

/** `list_files({ path? })`: files under a folder of the checkout, tracked or new, not ignored. */
export function listFilesTool(scope: TurnScope) {
  return defineTool({
    name: 'list_files',
    description:
      'List files of the ticket’s checkout under a folder (default: the root), ignoring .gitignore’d ones.',
    parameters: z.object({ path: z.string().optional() }),
    run: ({ path = '.' }) =>
      inWorkspace(scope, async (ws, login) => {
        const p = await confinePath(ws.dir, path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const args = ['ls-files', '--cached', '--others', '--exclude-standard', '--', p.rel];
        const got = await localGit(scope.rt.ctx.config, ws, login).raw(args, {
          timeoutMs: 30_000,
          capBytes: 400_000,
        });
        if (!got.ok) return toolError(got.refusal);
        const r = got.result;
        const files = [...new Set(r.stdout.split('\n').filter(Boolean))];
        const more = files.length > LIST_CAP ? `\n… and ${files.length - LIST_CAP} more` : '';
        return toolOk(files.slice(0, LIST_CAP).join('\n') + more || '(no files)');
      }),
  });
}

/** `read_file({ path, offset? })`: a file of the checkout, in slices of at most 60 kB. */
export function readFileTool(scope: TurnScope) {
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file of the checkout. Long files come in slices: pass offset (characters) for the next one.',
    parameters: z.object({ path: z.string().min(1), offset: z.number().int().min(0).optional() }),
    run: ({ path, offset = 0 }) =>
      inWorkspace(scope, async (ws) => {
        const p = await confinePath(ws.dir, path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const got = await readCheckoutFile(p);
        if (!got.ok) return toolError(got.refusal);
        const text = got.text;
        const slice = text.slice(offset, offset + READ_CAP);
        const end = offset + slice.length;
        return toolOk(
          end < text.length ? `${slice}\n[… ${text.length - end} more characters; offset ${end}]` : slice,
        );
      }),
  });
}

/** `search_files({ pattern, path? })`: `git grep` over tracked and new files (extended regex). */
export function searchFilesTool(scope: TurnScope) {
  return defineTool({
    name: 'search_files',
    description: 'Search the checkout’s files for an extended regular expression; answers file:line:text.',
    parameters: z.object({ pattern: z.string().min(1), path: z.string().optional() }),
    run: ({ pattern, path = '.' }) =>
      inWorkspace(scope, async (ws, login) => {
        const p = await confinePath(ws.dir, path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const args = ['grep', '-n', '-I', '-E', '--untracked', '-e', pattern, '--', p.rel];
        const got = await localGit(scope.rt.ctx.config, ws, login).raw(args, { timeoutMs: 60_000 });
        if (!got.ok) return toolError(got.refusal);
        const r = got.result;
        if (r.exitCode === 1) return toolOk('no matches');
        if (r.exitCode !== 0) return toolError(`search failed: ${r.output.trim()}`);
        return toolOk(r.stdout);
      }),
  });
}

/** `write_file({ path, content })`: creates or replaces a file inside the checkout. */
export function writeFileTool(scope: TurnScope) {
  return defineTool({
    name: 'write_file',
    description: 'Create or replace a file of the checkout with the given content.',
    parameters: z.object({ path: z.string().min(1), content: z.string() }),
    run: ({ path, content }) =>
      inWorkspace(scope, async (ws) => {
        const p = await confinePath(ws.dir, path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const wrote = await writeCheckoutFile(p, content);
        if (!wrote.ok) return toolError(wrote.refusal);
        return toolOk(`wrote ${p.rel} (${Buffer.byteLength(content)} bytes)`);
      }),
  });
}

/** `edit_file({ path, old, new })`: replaces one exact, unique passage of a file. */
export function editFileTool(scope: TurnScope) {
  return defineTool({
    name: 'edit_file',
    description: 'Replace one exact passage of a file (it must occur exactly once) with new text.',
    parameters: z.object({ path: z.string().min(1), old: z.string().min(1), new: z.string() }),
    run: (args) =>
      inWorkspace(scope, async (ws) => {
        const p = await confinePath(ws.dir, args.path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const got = await readCheckoutFile(p);
        if (!got.ok) return toolError(got.refusal);
        const count = got.text.split(args.old).length - 1;
        if (count !== 1)
          return toolError(`the passage occurs ${count} times in ${p.rel}; it must occur once`);
        const wrote = await writeCheckoutFile(
          p,
          got.text.replace(args.old, () => args.new),
        );
        if (!wrote.ok) return toolError(wrote.refusal);
        return toolOk(`edited ${p.rel}`);
      }),
  });
}
