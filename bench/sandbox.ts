import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_HOME } from '../src/executor/sandbox/bwrap-args.ts';
import { runSandboxed } from '../src/executor/sandbox/run-sandboxed.ts';
import type { SandboxSettings } from '../src/executor/sandbox/sandbox-settings.ts';
import { runProcess } from '../src/executor/workspace/run-process.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const RUNS = 30;

/**
 * Issue 13 `bench/`: what the sandbox adds to a command's start-up. Each round runs `true` three
 * ways, alternating so none gets the quieter moment: a bare spawn (the baseline), the sandbox
 * with network `none`, and with `egress` (pasta attached). Wall time from spawn to result,
 * cgroup set-up and the disk check after the command included.
 */
export async function benchSandbox(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sy-bench-sbx-'));
  const settings: SandboxSettings = {
    mode: 'bwrap',
    network: 'none',
    memoryMb: 2048,
    pids: 512,
    diskMb: 5120,
    tmpMb: 1024,
  };
  const env = { PATH: '/usr/bin:/bin', HOME: SANDBOX_HOME };
  const bare: number[] = [];
  const none: number[] = [];
  const egress: number[] = [];
  const time = async (xs: number[], fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  };
  const sandboxed = (network: 'none' | 'egress') =>
    runSandboxed(
      { ...settings, network },
      { checkout: dir, writable: true, argv: ['true'], env, timeoutMs: 30_000 },
    );
  try {
    await sandboxed('egress'); // warm-up: cgroup discovery, first exec of bwrap and pasta
    for (let i = 0; i < RUNS; i++) {
      await time(bare, () => runProcess('true', [], { cwd: dir, env, timeoutMs: 30_000 }));
      await time(none, () => sandboxed('none'));
      await time(egress, () => sandboxed('egress'));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const base = quantile(bare, 0.5);
  const note = `${RUNS} rounds of \`true\`, alternating; baseline: bare spawn, same run; overhead p50 = value − baseline`;
  const row = (name: string, xs: number[]): BenchRow => {
    const value = quantile(xs, 0.5);
    return {
      name,
      value,
      unit: 'ms p50',
      baseline: base,
      ratio: value / base,
      note: `${note}; p90 ${quantile(xs, 0.9).toFixed(0)} ms; overhead ${(value - base).toFixed(1)} ms`,
    };
  };
  return [
    row('command start-up in the sandbox, network none', none),
    row('command start-up in the sandbox, egress (pasta)', egress),
  ];
}
