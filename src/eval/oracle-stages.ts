import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oracleEdits, type ToolCall } from './oracle-patch.ts';
import type { EvalTask } from './task.ts';
import { reviewPatches } from './task-patches.ts';
import { gitIn, writeStartTree } from './task-repo.ts';

/**
 * The oracle's edits in the order a reviewed change is made (issue 47 item 5): `first`, what it
 * pushes for the request — solution.patch less each review follow-up's part — then, for each
 * review-thread comment, the edits of that part alone, made after the comment and pushed before
 * the thread is resolved. A task without review follow-ups has solution.patch as `first`.
 */
export interface OracleStages {
  first: ToolCall[];
  reviews: ToolCall[][];
}

export async function oracleStages(task: EvalTask): Promise<OracleStages> {
  if (!task.patch.trim()) return { first: [], reviews: [] };
  const parts = reviewPatches(task);
  if (!parts.length) return { first: await oracleEdits(task.repo, task.patch), reviews: [] };
  const work = mkdtempSync(join(tmpdir(), 'switchyard-oracle-stages-'));
  try {
    const tree = join(work, 'tree');
    await writeStartTree(task.repo, tree, work);
    const git = (...args: string[]) => gitIn(tree, work, ...args);
    const apply = async (name: string, text: string, ...flags: string[]) => {
      const file = join(work, name);
      writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
      await git('apply', '--whitespace=nowarn', ...flags, file);
    };
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'start');
    await apply('solution.patch', task.patch);
    for (const [i, p] of [...parts].reverse().entries()) await apply(`undo-${i}.patch`, p.text, '-R');
    await git('add', '-A');
    const first = await oracleEdits(task.repo, `${await git('diff', '--cached', 'HEAD')}\n`);
    await git('commit', '-q', '--allow-empty', '-m', 'before the review');
    const reviews: ToolCall[][] = [];
    for (const [i, p] of parts.entries()) {
      reviews.push(await oracleEdits({ kind: 'dir', path: tree }, p.text));
      await apply(`review-${i}.patch`, p.text);
      await git('add', '-A');
      await git('commit', '-q', '-m', `review ${i + 1}`);
    }
    return { first, reviews };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
