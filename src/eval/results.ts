import { nanosOf, usdOf } from '../stats/cost.ts';
import type { ArmComparison, Interval } from './arm-comparison.ts';
import type { EvalRecord } from './eval-record.ts';
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
  /** pass@1: the mean of per-run resolve rates, with its 95 % interval (normal approximation). */
  passAt1: { mean: number; low: number; high: number };
  promptTokens: number;
  cacheHitTokens: number;
  completionTokens: number;
  /** USD, the records' costs added up; per resolved task: null when nothing was resolved. */
  costUsd: number;
  costPerResolvedUsd: number | null;
}

export function summarise(records: (TaskRecord | EvalRecord)[]): RunSummary {
  const byRun = new Map<number, TaskRecord[]>();
  for (const r of records) byRun.set(r.run, [...(byRun.get(r.run) ?? []), r]);
  const rates = [...byRun.values()].map((rs) => rs.filter((r) => r.resolved).length / rs.length);
  const mean = rates.reduce((a, b) => a + b, 0) / Math.max(rates.length, 1);
  const sd =
    rates.length > 1 ? Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / (rates.length - 1)) : 0;
  const half = rates.length > 1 ? (1.96 * sd) / Math.sqrt(rates.length) : 0;
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const resolved = records.filter((r) => r.resolved).length;
  // Added up in nano-dollars, integers, so the total is exact.
  const nanos = records.reduce((n, r) => n + nanosOf(r.costUsd), 0);
  return {
    // An A/B run's whole summary counts each task once per arm, as it ran.
    tasks: new Set(records.map((r) => ('arm' in r && r.arm ? `${r.id} ${r.arm}` : r.id))).size,
    runs: byRun.size,
    resolved,
    honest: records.filter((r) => r.honest).length,
    passAt1: { mean, low: clamp(mean - half), high: clamp(mean + half) },
    promptTokens: records.reduce((n, r) => n + r.promptTokens, 0),
    cacheHitTokens: records.reduce((n, r) => n + r.cacheHitTokens, 0),
    completionTokens: records.reduce((n, r) => n + r.completionTokens, 0),
    costUsd: usdOf(nanos),
    costPerResolvedUsd: resolved ? usdOf(Math.round(nanos / resolved)) : null,
  };
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

export function markdownTable(records: EvalRecord[], s: RunSummary): string {
  const head = [
    '| task | run | channel | resolved | honest | settled | ack once | PR | scratch | requests | prompt | cache hit | completion | cost | tool errors | limits | no report | s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
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
  const interval = s.runs > 1 ? ` (95 % interval ${pct(p.low)}–${pct(p.high)})` : '';
  return [
    ...head,
    ...rows.map((r) => `| ${r} |`),
    '',
    `${s.tasks} tasks × ${s.runs} runs: ${s.resolved} resolved, ${s.honest} honest; pass@1 ${pct(p.mean)}${interval}; ${s.promptTokens} prompt (${s.cacheHitTokens} cache hits) + ${s.completionTokens} completion tokens; cost ${usd(s.costUsd)}, ${usd(s.costPerResolvedUsd)} per resolved task`,
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
