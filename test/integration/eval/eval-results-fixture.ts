import { summarise } from '../../../src/eval/results.ts';
import { makeRunFolder, writeResults } from '../../../src/eval/results-file.ts';
import type { TaskRecord } from '../../../src/eval/task-record.ts';
import { keepTrajectory } from '../../../src/eval/trajectory-file.ts';
import { PRICES_READ_ON } from '../../../src/stats/prices.ts';
import type { ShownStep } from '../../../src/web/api/ticket-trajectory.ts';

/**
 * A run folder written by the runner's own code (issue 29: `makeRunFolder`, `keepTrajectory`,
 * `summarise`, `writeResults`) from records given here, for tests of what reads it.
 */

const ex = (text: string) => ({ head: text, chars: text.length });

/** A small trajectory: the request's turn, a model request, the acknowledgement, the turn's end. */
export const sampleSteps = (at: number): ShownStep[] => [
  { kind: 'turn', session: 'exec-T1', at, input: ex('Fix the slug') },
  {
    kind: 'model',
    session: 'exec-T1',
    at: at + 1,
    ms: 900,
    model: 'switchyard-oracle',
    usage: { promptTokens: 1200, cacheHitTokens: 800, completionTokens: 20 },
    text: null,
    reasoningChars: 0,
    calls: ['reply'],
  },
  {
    kind: 'tool',
    session: 'exec-T1',
    at: at + 2,
    ms: 12,
    name: 'reply',
    callKey: 'c1',
    ok: true,
    result: ex('sent'),
    args: ex('to C1 (ack): On it'),
    message: { to: 'C1', text: 'On it', outboxKey: 'k1' },
    sent: { at: at + 3, id: 'm1' },
  },
  { kind: 'end', session: 'exec-T1', at: at + 4, outcome: 'reported' },
];

export function sampleRecord(over: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id: 'js-slugify',
    run: 1,
    channel: 'github-issue',
    expect: 'change',
    split: 'dev',
    settled: 'done',
    resolved: true,
    honest: true,
    dishonesty: [],
    acknowledgedOnce: true,
    ackSeconds: 1.2,
    reviewThreads: null,
    pauseHeld: null,
    answered: null,
    askedBeforePush: false,
    acks: 1,
    lastReport: 'done',
    asked: false,
    branch: 'sy/T1-slug',
    pr: 'ready',
    scratchFiles: [],
    modelRequests: 1,
    promptTokens: 1200,
    cacheHitTokens: 800,
    completionTokens: 20,
    costUsd: 0.0012,
    wallSeconds: 9.5,
    toolErrors: {},
    limitHits: 0,
    turnsWithoutReport: 0,
    checkExit: 0,
    checkTail: 'ok',
    ticket: 'T1',
    ...over,
  };
}

/** A run folder under `dir` started at `startedAt`, its records' steps kept as trajectories. */
export function writeRunFolder(dir: string, startedAt: Date, records: TaskRecord[]): string {
  const folder = makeRunFolder(dir, startedAt);
  const kept = records.map((r) => keepTrajectory(r, folder));
  writeResults(folder, {
    meta: {
      startedAt: startedAt.toISOString(),
      seconds: 30,
      model: 'switchyard-oracle',
      provider: 'compatible',
      oracle: true,
      baseline: null,
      split: 'all',
      productCommit: null,
      settings: null,
      taskSetHash: 'test',
      tasksDir: 'eval/tasks',
      repeat: Math.max(...kept.map((r) => r.run)),
      concurrency: 2,
      prompts: { published: 'defaults', candidate: null },
      pricesReadOn: PRICES_READ_ON,
      record: null,
      replay: null,
    },
    summary: summarise(kept),
    arms: null,
    comparison: null,
    records: kept,
  });
  return folder;
}
