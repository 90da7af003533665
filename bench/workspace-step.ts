import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { closeContext, createContext } from '../src/create-context.ts';
import { importCommit } from '../src/executor/workspace/import-commit.ts';
import { recordWorkspaceStep } from '../src/executor/workspace/record-step.ts';
import { workspacePaths } from '../src/executor/workspace/workspace.ts';
import { saveWorkspace } from '../src/executor/workspace/workspace-record.ts';
import { loadWorkspaceStep } from '../src/executor/workspace/workspace-step-record.ts';
import { BEFORE_ISSUE_28, runInTree } from './before-tree.ts';
import { deletePrefix } from './kit.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const RUNS = 15;
const FILES = 200;

/**
 * Issue 19 `bench/`: the cost of recording a workspace step. Each round is a `write_file`-like step
 * on a checkout of 200 files (the baseline: writing the file), then the same step followed by
 * `recordWorkspaceStep` (work-in-progress commit in the sandbox, import into the mirror with fsck,
 * bundle, Redis), alternating. Issue 28: then a step that changes nothing (a read, like `cat`)
 * followed by `recordWorkspaceStep`, against the read alone.
 */
export async function benchWorkspaceStep(): Promise<BenchRow[]> {
  const after = await measureWorkspaceStep();
  // Issue 28: the same rounds in a worktree of the commit before it (this file copied in), same run.
  const before = runInTree<BenchRow[]>(BEFORE_ISSUE_28, 'workspace-step.ts', [
    'bench/workspace-step.ts',
    'bench/before-tree.ts',
  ]);
  const read = (rows: BenchRow[] | undefined) => rows?.find((r) => r.name.includes('nothing changed'));
  const was = read(before);
  const now = read(after);
  if (!was || !now) return after;
  return [
    ...after,
    {
      name: 'workspace step, nothing changed: after ÷ before issue 28',
      value: now.value,
      unit: 'ms p50',
      baseline: was.value,
      ratio: now.value / was.value,
      note: `baseline: the same rounds at ${BEFORE_ISSUE_28.slice(0, 7)} (a git worktree, same run; every step recorded a WIP commit and bundle then)`,
    },
  ];
}

/** The rounds of this checkout's code; `npx tsx bench/workspace-step.ts --json` prints them. */
export async function measureWorkspaceStep(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'sy-bench-ws-'));
  const prefix = `bench-ws-${randomUUID().slice(0, 8)}`;
  const ctx = createContext(
    loadConfig({ REDIS_URL: redisUrl, KEY_PREFIX: prefix, LOG_LEVEL: 'silent', WORKSPACE_DIR: root }),
  );
  const paths = workspacePaths(ctx, 'T1');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: paths.dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: root,
        GIT_AUTHOR_NAME: 'a',
        GIT_AUTHOR_EMAIL: 'a@x',
        GIT_COMMITTER_NAME: 'a',
        GIT_COMMITTER_EMAIL: 'a@x',
      },
    })
      .toString()
      .trim();
  const base: number[] = [];
  const rec: number[] = [];
  const readBase: number[] = [];
  const readRec: number[] = [];
  let bundleBytes = 0;
  try {
    mkdirSync(join(paths.dir, 'src'), { recursive: true });
    mkdirSync(join(paths.home, 'tmp'), { recursive: true });
    for (let i = 0; i < FILES; i++)
      writeFileSync(join(paths.dir, 'src', `f${i}.ts`), `export const v${i} = ${i};\n`);
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    const baseSha = git('rev-parse', 'HEAD');
    await importCommit(ctx, 'acme/web', paths.dir, 'T1', baseSha);
    await saveWorkspace(ctx, 'T1', {
      repo: 'acme/web',
      cloneUrl: 'file:///none',
      dir: paths.dir,
      home: paths.home,
      branch: 'main',
      base: 'main',
      baseSha,
    });
    const step = (i: number) => writeFile(join(paths.dir, 'src', 'f0.ts'), `export const v0 = ${i};\n`);
    const time = async (xs: number[], fn: () => Promise<unknown>) => {
      const t0 = performance.now();
      await fn();
      xs.push(performance.now() - t0);
    };
    await recordWorkspaceStep(ctx, 'T1', 'warm-up');
    for (let i = 0; i < RUNS; i++) {
      await time(base, () => step(i));
      await time(rec, async () => {
        await step(i + 1000);
        await recordWorkspaceStep(ctx, 'T1', `s${i}`);
      });
    }
    // A failed recording is only logged: make sure the timed ones were recorded.
    const last = await loadWorkspaceStep(ctx, 'T1');
    if (last?.step.step !== `s${RUNS - 1}`) throw new Error('the workspace steps were not recorded');
    bundleBytes = last.bundle.length;
    const read = () => readFile(join(paths.dir, 'src', 'f1.ts'), 'utf8');
    for (let i = 0; i < RUNS; i++) {
      await time(readBase, read);
      await time(readRec, async () => {
        await read();
        await recordWorkspaceStep(ctx, 'T1', `r${i}`);
      });
    }
  } finally {
    await deletePrefix(ctx.redis, prefix);
    await closeContext(ctx);
    rmSync(root, { recursive: true, force: true });
  }
  const b = quantile(base, 0.5);
  const value = quantile(rec, 0.5);
  const rb = quantile(readBase, 0.5);
  const rv = quantile(readRec, 0.5);
  return [
    {
      name: 'workspace step recorded (issue 19)',
      value,
      unit: 'ms p50',
      baseline: b,
      ratio: value / b,
      note: `${RUNS} rounds, ${FILES}-file checkout, sandbox bwrap; baseline: the same step unrecorded, same run; p90 ${quantile(rec, 0.9).toFixed(0)} ms; bundle ${bundleBytes} bytes`,
    },
    {
      name: 'workspace step, nothing changed (issue 28)',
      value: rv,
      unit: 'ms p50',
      baseline: rb,
      ratio: rv / rb,
      note: `${RUNS} rounds, a read then recordWorkspaceStep; baseline: the read alone; p90 ${quantile(readRec, 0.9).toFixed(0)} ms`,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = process.argv.includes('--json') ? await measureWorkspaceStep() : await benchWorkspaceStep();
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  process.exit(0);
}
