import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { BenchRow } from './row.ts';

/** Every benchmark module and the function it exports; a module not present yet is skipped with a note. */
const BENCHES: [file: string, fn: string][] = [
  ['./ingest-github.ts', 'benchGitHubIngest'],
  ['./probot.ts', 'benchProbot'],
  ['./ingest-cpu.ts', 'benchIngestCpu'],
  ['./ingest-feishu.ts', 'benchFeishuIngest'],
  ['./routing.ts', 'benchRouting'],
  ['./latency.ts', 'benchLatency'],
  ['./ack.ts', 'benchAck'],
  ['./ack-thinking.ts', 'benchAckThinking'],
  ['./prompts.ts', 'benchPrompts'],
  ['./agent-loop.ts', 'benchAgentLoop'],
  ['./prompt-cache.ts', 'benchPromptCache'],
  ['./hostile-text.ts', 'benchHostileText'],
  ['./load.ts', 'benchLoad'],
  ['./sandbox.ts', 'benchSandbox'],
  ['./trajectory.ts', 'benchTrajectory'],
  ['./fencing.ts', 'benchFencing'],
  ['./workspace-step.ts', 'benchWorkspaceStep'],
  ['./bad-habits.ts', 'benchBadHabits'],
  ['./bad-habits-48.ts', 'benchBadHabits48'],
  ['./tracing.ts', 'benchTracing'],
  ['./scale-out.ts', 'benchScaleOut'],
  ['./machine.ts', 'benchMachine'],
];

const fmt = (n: number | undefined) =>
  n === undefined ? '' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);

function table(rows: BenchRow[]): string {
  const head = ['benchmark', 'value', 'unit', 'baseline', 'ratio', 'note'];
  const body = rows.map((r) => [
    r.name,
    fmt(r.value),
    r.unit,
    fmt(r.baseline),
    r.ratio === undefined ? '' : `${fmt(r.ratio)}×`,
    r.note ?? '',
  ]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
}

/** `npm run bench`: runs each benchmark in turn (one at a time, so they don't disturb each other) and prints one table. */
async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const rows: BenchRow[] = [];
  for (const [file, fn] of BENCHES) {
    if (only.length && !only.some((o) => file.includes(o))) continue;
    if (!existsSync(new URL(file, import.meta.url))) continue;
    const mod = (await import(file)) as Record<string, () => Promise<BenchRow[]>>;
    const run = mod[fn];
    if (!run) throw new Error(`${file} does not export ${fn}`);
    process.stderr.write(`running ${fn}…\n`);
    rows.push(...(await run()));
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  process.stdout.write(`Machine: ${machine}\n\n${table(rows)}\n`);
  process.exit(0);
}

await main();
