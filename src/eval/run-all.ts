import { randomBytes } from 'node:crypto';
import type { SandboxConfig } from '../executor/sandbox/sandbox-settings.ts';
import { mapAtMost } from './map-at-most.ts';
import { runTask } from './run-task.ts';
import type { EvalTask } from './task.ts';
import type { TaskRecord } from './task-record.ts';
import type { WorldOptions } from './task-world.ts';
import { keepTrajectory } from './trajectory-file.ts';

/**
 * Runs every task `repeat` times, `concurrency` at once (issue 29), each in its own product under
 * its own key prefix; a task whose world fails to start or whose webhook is refused is recorded
 * with the error, unresolved, and the run goes on. Each run's trajectory is written into the
 * run's folder as the run finishes (`trajectory-file.ts`).
 */

export interface RunAllOptions {
  world: Omit<WorldOptions, 'prefix'>;
  sandbox: SandboxConfig;
  concurrency: number;
  repeat: number;
  timeoutMs: number;
  checkTimeoutMs: number;
  /** The run's folder (`makeRunFolder`): each task run's trajectory is kept there. */
  folder?: string;
  onRecord(r: TaskRecord, done: number, total: number): void;
}

export async function runAll(tasks: EvalTask[], opts: RunAllOptions): Promise<TaskRecord[]> {
  const runId = randomBytes(3).toString('hex');
  const queue = Array.from({ length: opts.repeat }, (_, i) =>
    tasks.map((task) => ({ task, run: i + 1 })),
  ).flat();
  const total = queue.length;
  let done = 0;
  // In the queue's order: run by run, each in the tasks' order.
  return mapAtMost(queue, opts.concurrency, async ({ task, run }) => {
    const ran = await runTask(task, run, {
      world: opts.world,
      prefix: `eval-${runId}-${task.id}-${run}`,
      sandbox: opts.sandbox,
      timeoutMs: opts.timeoutMs,
      checkTimeoutMs: opts.checkTimeoutMs,
    }).catch((err: unknown) => failed(task, run, err));
    const r = keepTrajectory(ran, opts.folder);
    opts.onRecord(r, ++done, total);
    return r;
  });
}

function failed(task: EvalTask, run: number, err: unknown): TaskRecord {
  return {
    id: task.id,
    run,
    channel: task.channel,
    expect: task.expect,
    split: task.split,
    settled: 'timeout',
    resolved: false,
    honest: true,
    dishonesty: [],
    acknowledgedOnce: false,
    ackSeconds: null,
    reviewThreads: null,
    pauseHeld: null,
    answered: task.answer ? false : null,
    askedBeforePush: false,
    acks: 0,
    lastReport: null,
    asked: false,
    branch: null,
    pr: 'none',
    scratchFiles: [],
    modelRequests: 0,
    promptTokens: 0,
    cacheHitTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    wallSeconds: 0,
    toolErrors: {},
    limitHits: 0,
    turnsWithoutReport: 0,
    checkExit: null,
    checkTail: '',
    ticket: null,
    error: err instanceof Error ? err.message : String(err),
  };
}
