import type { Ctx } from '../../context.ts';
import type { localGit } from '../sandbox/local-git.ts';
import { scratchReason } from '../scratch-files.ts';
import { mirrorLocal } from './mirror.ts';
import { GitError } from './run-git.ts';
import type { Workspace } from './workspace-record.ts';

type LocalGit = ReturnType<typeof localGit>;

/** How many new files the answer names, and how many it checks for size. */
const NAMED = 20;
const SIZED = 200;

/**
 * The ticket's branch as this host last knew it at GitHub (the mirror's ref, moved by every
 * push), or undefined for a branch never pushed. Read before a push, it is where the push starts.
 */
export async function lastPushed(ctx: Ctx, ws: Workspace): Promise<string | undefined> {
  return mirrorLocal(ctx, ws.repo, ['rev-parse', '-q', '--verify', `refs/heads/${ws.branch}^{commit}`]).catch(
    () => undefined,
  );
}

/** `git diff --stat --summary` of `range`, without its summary lines, and the files it creates. */
async function statOf(g: LocalGit, range: string[]) {
  const out = await g.run([
    '-c',
    'core.quotePath=false',
    'diff',
    '--stat=100',
    '--stat-count=40',
    '--summary',
    ...range,
  ]);
  // git indents each line with a space; the first one's went with the output's trim.
  const lines = out.split('\n').map((l) => (l.startsWith(' ') || !l ? l : ` ${l}`));
  const created = lines
    .filter((l) => l.startsWith(' create mode '))
    .map((l) => l.slice(' create mode '.length).replace(/^\d+ /, ''));
  const stat = lines.filter((l) => !/^ (create|delete) mode |^ mode change |^ rename |^ copy /.test(l));
  return { stat: stat.join('\n'), created };
}

/** Sizes of `files` at `sha`, by path; names git quotes are left out. */
async function sizesOf(g: LocalGit, sha: string, files: string[]): Promise<Map<string, number>> {
  const plain = files.filter((f) => !f.startsWith('"')).slice(0, SIZED);
  if (!plain.length) return new Map();
  const out = await g.run(['ls-tree', '-r', '-l', '-z', sha, '--', ...plain.map((f) => `:(literal)${f}`)]);
  const sizes = new Map<string, number>();
  for (const entry of out.split('\0')) {
    const tab = entry.indexOf('\t');
    const size = Number(entry.slice(0, tab).trim().split(/\s+/)[3]);
    if (tab > 0 && Number.isFinite(size)) sizes.set(entry.slice(tab + 1), size);
  }
  return sizes;
}

/**
 * What a push took to GitHub, for the model (issue 28): git's `--stat` from where the branch was
 * (`from`, else the base), the new files it adds, and a warning naming those that look like
 * scratch or build output (`scratchReason`) with how to take them out.
 */
export async function pushedSummary(g: LocalGit, ws: Workspace, sha: string, from: string | undefined) {
  const got = from
    ? await statOf(g, [from, sha]).catch((err) => {
        if (err instanceof GitError) return undefined;
        throw err;
      })
    : undefined;
  const { stat, created } = got ?? (await statOf(g, [`origin/${ws.base}...${sha}`]));
  const lines = [stat];
  if (created.length) {
    const more = created.length > NAMED ? ` and ${created.length - NAMED} more` : '';
    lines.push(`new files: ${created.slice(0, NAMED).join(', ')}${more}`);
    const sizes = await sizesOf(g, sha, created);
    const odd = created.flatMap((f) => {
      const why = scratchReason(f, sizes.get(f));
      return why ? [`${f} (${why})`] : [];
    });
    if (odd.length)
      lines.push(
        `warning: ${odd.length === 1 ? 'this new file looks' : 'these new files look'} like scratch or build output: ${odd.slice(0, NAMED).join(', ')}${odd.length > NAMED ? ` and ${odd.length - NAMED} more` : ''}. If not part of the change, take it out (run_command: \`git rm --cached <file>\`, then delete it or add it to .gitignore) and commit_and_push again.`,
      );
  }
  return lines.filter(Boolean).join('\n');
}
