import { nanosOf, usdOf } from '../stats/cost.ts';
import type { ArmComparison, Interval } from './arm-comparison.ts';
import type { EvalRecord } from './eval-record.ts';
import { type TaskStats, taskStats, tInterval } from './stats.ts';
import type { TaskRecord } from './task-record.ts';

/**
 * The run's results (issue 29): `results.json` under `eval/results/<timestamp>/`, a line per task
 * run as it finishes, and a Markdown table with pass@1 — over `--repeat k` runs, the mean resolve
 * rate with a 95 % interval.
 */

export interface RunSummary {
  tasks: number;
  runs: number;
  resolved: number;
  honest: number;
  /** pass@1: the mean of per-run resolve rates, with its 95 % interval (Student's t over the runs). */
  passAt1: { mean: number; low: number; high: number };
  /**
   * pass@1, pass@k and pass^k over tasks (k: the runs each task had), each with a 95 % bootstrap
   * interval over tasks (`stats.ts`), so which tasks were drawn counts too.
   */
  byTask: TaskStats;
  /** Tasks acknowledged exactly once, and the acknowledgement's median latency in seconds (null: none). */
  acknowledgedOnce: number;
  ackSecondsMedian: number | null;
  /**
   * Issue 47 item 5: the review threads the runs opened, answered in by the bot and resolved, added
   * up; the runs of pause tasks and those whose pause held (nothing pushed until the resume).
   */
  reviewThreads: { total: number; answered: number; resolved: number };
  pauses: { runs: number; held: number };
  promptTokens: number;
  cacheHitTokens: number;
  completionTokens: number;
  /** USD, the records' costs added up; per resolved task: null when nothing was resolved. */
  costUsd: number;
  costPerResolvedUsd: number | null;
  /** Wall time of every task run added up, per resolved task (null when nothing was resolved). */
  wallSecondsPerResolved: number | null;
}

export function summarise(records: (TaskRecord | EvalRecord)[]): RunSummary {
  const byRun = new Map<number, TaskRecord[]>();
  for (const r of records) byRun.set(r.run, [...(byRun.get(r.run) ?? []), r]);
  const rates = [...byRun.values()].map((rs) => rs.filter((r) => r.resolved).length / rs.length);
  const taskKey = (r: TaskRecord | EvalRecord) => ('arm' in r && r.arm ? `${r.id} ${r.arm}` : r.id);
  const perTask = new Map<string, { runs: number; resolved: number }>();
  for (const r of records) {
    const t = perTask.get(taskKey(r)) ?? { runs: 0, resolved: 0 };
    perTask.set(taskKey(r), { runs: t.runs + 1, resolved: t.resolved + Number(r.resolved) });
  }
  const resolved = records.filter((r) => r.resolved).length;
  // Added up in nano-dollars, integers, so the total is exact.
  const nanos = records.reduce((n, r) => n + nanosOf(r.costUsd), 0);
  const wall = records.reduce((n, r) => n + r.wallSeconds, 0);
  const acks = records.flatMap((r) =>
    r.ackSeconds === null || r.ackSeconds === undefined ? [] : [r.ackSeconds],
  );
  return {
    // An A/B run's whole summary counts each task once per arm, as it ran.
    tasks: perTask.size,
    runs: byRun.size,
    resolved,
    honest: records.filter((r) => r.honest).length,
    passAt1: tInterval(rates),
    byTask: taskStats([...perTask.values()]),
    acknowledgedOnce: records.filter((r) => r.acknowledgedOnce).length,
    ackSecondsMedian: median(acks),
    reviewThreads: {
      total: records.reduce((n, r) => n + (r.reviewThreads?.total ?? 0), 0),
      answered: records.reduce((n, r) => n + (r.reviewThreads?.answered ?? 0), 0),
      resolved: records.reduce((n, r) => n + (r.reviewThreads?.resolved ?? 0), 0),
    },
    pauses: {
      runs: records.filter((r) => typeof r.pauseHeld === 'boolean').length,
      held: records.filter((r) => r.pauseHeld === true).length,
    },
    promptTokens: records.reduce((n, r) => n + r.promptTokens, 0),
    cacheHitTokens: records.reduce((n, r) => n + r.cacheHitTokens, 0),
    completionTokens: records.reduce((n, r) => n + r.completionTokens, 0),
    costUsd: usdOf(nanos),
    costPerResolvedUsd: resolved ? usdOf(Math.round(nanos / resolved)) : null,
    wallSecondsPerResolved: resolved ? Math.round((wall / resolved) * 10) / 10 : null,
  };
}

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** USD as the table shows it: four decimals (a task often costs well under a cent). */
export const usd = (x: number | null): string => (x === null ? '—' : `$${x.toFixed(4)}`);

/** A record's name in the table and the progress lines: `js-slugify`, `js-slugify [candidate]`. */
const named = (r: EvalRecord) => (r.arm ? `${r.id} [${r.arm}]` : r.id);

/** One line for the terminal as a task run finishes. */
export function progressLine(r: EvalRecord, done: number, total: number): string {
  const verdict = r.error ? 'ERROR' : r.resolved ? 'resolved' : 'unresolved';
  const honesty = r.honest ? 'honest' : `DISHONEST (${r.dishonesty.join('; ')})`;
  const tokens = `${r.modelRequests} requests, ${r.promptTokens}+${r.completionTokens} tokens, ${usd(r.costUsd)}`;
  const extra = r.error ? ` — ${r.error}` : '';
  return `[${done}/${total}] ${named(r)}#${r.run}: ${verdict}, ${honesty}, ${r.settled}, PR ${r.pr}, ${tokens}, ${r.wallSeconds} s${extra}`;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** Issue 47 item 5: the review threads answered in and resolved (of those opened), the pause held or not. */
function behaviourCell(r: EvalRecord): string {
  const t = r.reviewThreads;
  const parts = [
    ...(t ? [`threads ${t.answered}/${t.resolved} of ${t.total}`] : []),
    ...(typeof r.pauseHeld === 'boolean' ? [r.pauseHeld ? 'pause held' : '**pause broken**'] : []),
  ];
  return parts.join(', ') || '—';
}

export function markdownTable(records: EvalRecord[], s: RunSummary): string {
  const head = [
    '| task | run | channel | resolved | honest | settled | ack once | ack s | threads, pause | PR | scratch | requests | prompt | cache hit | completion | cost | tool errors | limits | no report | s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const yes = (b: boolean) => (b ? 'yes' : '**no**');
  const rows = records.map((r) =>
    [
      named(r),
      r.run,
      r.channel,
      yes(r.resolved),
      yes(r.honest),
      r.settled,
      yes(r.acknowledgedOnce),
      r.ackSeconds ?? '—',
      behaviourCell(r),
      r.pr,
      r.scratchFiles.length,
      r.modelRequests,
      r.promptTokens,
      r.cacheHitTokens,
      r.completionTokens,
      usd(r.costUsd),
      Object.entries(r.toolErrors)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ') || '0',
      r.limitHits,
      r.turnsWithoutReport,
      r.wallSeconds,
    ].join(' | '),
  );
  const p = s.passAt1;
  const interval = s.runs > 1 ? ` (95 % interval ${pct(p.low)}–${pct(p.high)}, Student's t over runs)` : '';
  const b = s.byTask;
  const est = (e: { mean: number; low: number; high: number }) =>
    `${pct(e.mean)} [${pct(e.low)}–${pct(e.high)}]`;
  const overTasks = `over tasks (95 % bootstrap): pass@1 ${est(b.passAt1)}, pass@${b.k} ${est(b.passAtK)}, pass^${b.k} ${est(b.passHatK)}`;
  // The median of an even count is a mean: 0.1 and 0.2 printed as 0.15000000000000002.
  const ack = `acknowledged once ${s.acknowledgedOnce} of ${s.tasks * s.runs}${s.ackSecondsMedian === null ? '' : `, median ${Number(s.ackSecondsMedian.toFixed(2))} s to the acknowledgement`}`;
  const wall = s.wallSecondsPerResolved === null ? '' : `, ${s.wallSecondsPerResolved} s per resolved task`;
  const t = s.reviewThreads;
  const threads = t.total
    ? `; review threads: ${t.answered} of ${t.total} answered, ${t.resolved} resolved`
    : '';
  const pauses = s.pauses.runs ? `; pauses held ${s.pauses.held} of ${s.pauses.runs}` : '';
  return [
    ...head,
    ...rows.map((r) => `| ${r} |`),
    '',
    `${s.tasks} tasks × ${s.runs} runs: ${s.resolved} resolved, ${s.honest} honest; pass@1 ${pct(p.mean)}${interval}; ${s.promptTokens} prompt (${s.cacheHitTokens} cache hits) + ${s.completionTokens} completion tokens; cost ${usd(s.costUsd)}, ${usd(s.costPerResolvedUsd)} per resolved task${wall}`,
    `${overTasks}; ${ack}${threads}${pauses}`,
  ].join('\n');
}

const signed = (x: number, unit: (v: number) => string) => `${x < 0 ? '−' : '+'}${unit(Math.abs(x))}`;
const points = (x: number) => `${(x * 100).toFixed(1)} points`;

function withInterval(d: Interval, unit: (v: number) => string): string {
  const around =
    d.low === null || d.high === null
      ? ' (one pair: no interval)'
      : ` (95 % interval ${signed(d.low, unit)} to ${signed(d.high, unit)})`;
  return `${signed(d.mean, unit)}${around}`;
}

/** An A/B run's arms side by side and the candidate's difference, paired by task run. */
export function armsTable(
  names: { published: string; candidate: string },
  arms: { published: RunSummary; candidate: RunSummary },
  c: ArmComparison,
): string {
  const row = (label: 'published' | 'candidate') => {
    const a = arms[label];
    const runs = a.tasks * a.runs;
    return `| ${label} | ${names[label]} | ${runs} | ${a.resolved} | ${pct(runs ? a.resolved / runs : 0)} | ${usd(a.costUsd)} | ${usd(a.costPerResolvedUsd)} |`;
  };
  const left = c.leftOut ? ` (${c.leftOut} left out: an error in an arm)` : '';
  return [
    '| arm | prompts | task runs | resolved | resolve rate | cost | per resolved |',
    '|---|---|---|---|---|---|---|',
    row('published'),
    row('candidate'),
    '',
    `candidate − published over ${c.pairs} paired task runs${left}: resolve rate ${withInterval(c.resolveRate.difference, points)}; cost per task run ${withInterval(c.costUsd.difference, usd)}`,
  ].join('\n');
}
