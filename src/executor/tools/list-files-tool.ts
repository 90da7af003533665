import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { pathspecs } from '../files/pathspecs.ts';
import { localGit } from '../sandbox/local-git.ts';
import type { TurnScope } from '../turn-scope.ts';
import { confinePath } from '../workspace/confine-path.ts';
import { inWorkspace } from '../workspace/work-gate.ts';

const LIST_CAP = 500;

/**
 * The listing at `depth` below `rel`: files that deep or shallower, and each deeper folder once
 * as `folder/ (N files)` (issue 28), so a large repository's shape fits one answer.
 */
export function collapse(files: readonly string[], rel: string, depth: number | undefined): string[] {
  if (depth === undefined) return [...files];
  const base = rel === '.' ? 0 : rel.split('/').length;
  const folders = new Map<string, number>();
  const out: string[] = [];
  for (const f of files) {
    const parts = f.split('/');
    if (parts.length - base <= depth) out.push(f);
    else {
      const dir = `${parts.slice(0, base + depth).join('/')}/`;
      if (!folders.has(dir)) out.push(dir);
      folders.set(dir, (folders.get(dir) ?? 0) + 1);
    }
  }
  return out.map((e) => {
    const n = folders.get(e);
    return n === undefined ? e : `${e} (${n} ${n === 1 ? 'file' : 'files'})`;
  });
}

/** `list_files({ path?, glob?, depth? })`: files under a folder of the checkout, tracked or new, not ignored. */
export function listFilesTool(scope: TurnScope) {
  return defineTool({
    name: 'list_files',
    description:
      'List files of the checkout under a folder (default: the root), without .gitignore’d ones. glob filters names (*.ts, src/**/*.json); depth 1 lists the folder’s own files and each subfolder once with its file count.',
    parameters: z.object({
      path: z.string().optional(),
      glob: z.string().optional(),
      depth: z.number().int().min(1).optional(),
    }),
    run: ({ path = '.', glob, depth }) =>
      inWorkspace(scope, async (ws, login) => {
        const p = await confinePath(ws.dir, path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const specs = pathspecs(p.rel, glob);
        if (!specs.ok) return toolError(`refused: ${specs.why}`);
        const args = ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...specs.specs];
        const got = await localGit(scope.rt.ctx.config, ws, login).raw(args, {
          timeoutMs: 30_000,
          capBytes: 400_000,
        });
        if (!got.ok) return toolError(got.refusal);
        const files = [...new Set(got.result.stdout.split('\n').filter(Boolean))].sort();
        const entries = collapse(files, p.rel, depth);
        const more = entries.length > LIST_CAP ? `\n… and ${entries.length - LIST_CAP} more` : '';
        return toolOk(entries.slice(0, LIST_CAP).join('\n') + more || '(no files)');
      }),
  });
}
