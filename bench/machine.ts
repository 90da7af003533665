import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const RUNS = 5;

function ms(work: () => void): number {
  const t = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function median(work: () => void): number {
  return quantile(
    Array.from({ length: RUNS }, () => ms(work)),
    0.5,
  );
}

/** Short-lived objects, as a worker's JSON, zod and Redis replies make them. */
function allocate(): void {
  let keep: { i: number; s: string }[] = [];
  for (let i = 0; i < 3e6; i++) {
    keep.push({ i, s: `k${i}` });
    if (keep.length > 1000) keep = [];
  }
}

function spawnEach(cmd: string, args: string[], n: number): void {
  for (let i = 0; i < n; i++) {
    const r = spawnSync(cmd, args, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
  }
}

/**
 * How fast this machine is at what the suite spends its time on (issue 32): machines of the same
 * kind have run the same tree's suite in 217 s and in 472 s, so a suite figure means little without
 * these beside it. Hashing and allocation for the workers' own CPU; process starts for the bot
 * processes, spawn hosts and thousands of git runs the tests make.
 */
export async function benchMachine(): Promise<BenchRow[]> {
  const mib = Buffer.alloc(1 << 20, 7);
  const sha = median(() => {
    for (let i = 0; i < 512; i++) createHash('sha256').update(mib).digest();
  });
  const alloc = median(allocate);
  const node = median(() => spawnEach(process.execPath, ['-e', '0'], 10)) / 10;
  const git = median(() => spawnEach('git', ['--version'], 50)) / 50;
  const note = `median of ${RUNS}`;
  return [
    { name: 'machine: sha256 of 512 MiB', value: sha, unit: 'ms', note },
    { name: 'machine: 3 M short-lived objects', value: alloc, unit: 'ms', note },
    { name: 'machine: start and exit of `node -e 0`', value: node, unit: 'ms', note },
    { name: 'machine: start and exit of `git --version`', value: git, unit: 'ms', note },
  ];
}
