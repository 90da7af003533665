import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startWorld } from '../test/integration/executor/harness.ts';
import { botMessages, localMessage, send } from '../test/integration/routing/helpers.ts';
import { text, toolCalls } from '../test/kit/fake-llm.ts';
import { freePort } from '../test/kit/local-net.ts';
import { cardsIn, roleOf } from '../test/kit/scripted-model.ts';
import { type BotProcess, startBotProcess } from '../test/kit/worker-process.ts';
import type { BenchRow } from './row.ts';

/**
 * Each fake model request answers after this long (a real one takes seconds): turns wait on the
 * model, so what bounds throughput is how many turns run at once, not the CPU.
 */
const MODEL_MS = 500;
/** Executor turns one worker process runs at once (`EXECUTOR_CONCURRENCY`). */
const PER_WORKER = 2;

export interface ScaleRun {
  workers: number;
  turns: number;
  seconds: number;
  rate: number;
  /** Acknowledgements missing and sent twice, over every ticket. */
  missing: number;
  twice: number;
  /** Turns run per worker process (BullMQ `processedBy`). */
  sharedBy: number[];
  /** CPU time the worker processes spent per timed turn, all of them together (ms). */
  cpuMsPerTurn: number;
}

/** User + system CPU time of a process so far, in ms, from /proc (Linux; clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Issue 19 scale-out: `turns` explicit requests, each in its own chat so code opens its ticket
 * (no main-session turn, issue 18), run by `workers` `ROLE=worker` processes (the real
 * `src/main.ts`, `EXECUTOR_CONCURRENCY=2` each) against a model that answers every request after
 * 500 ms. A turn is two requests: the acknowledgement (`reply`), then its end. After an untimed
 * warm-up, timed from the first card to the last turn's completion; every ticket must have
 * exactly one acknowledgement.
 */
export async function runScaleOut(workers: number, turns: number): Promise<ScaleRun> {
  const w = await startWorld({}, { workers: false });
  const procs: BotProcess[] = [];
  try {
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return { ...text('Nothing to route.'), delayMs: MODEL_MS };
      const card = cardsIn(req)[0];
      const first = req.messages.at(-1)?.role === 'user';
      const reply =
        first && card ? toolCalls(['reply', { to: card, text: `On it: ${card}.` }]) : text('Done.');
      return { ...reply, delayMs: MODEL_MS };
    });
    const ports: number[] = [];
    for (let i = 0; i < workers; i++) {
      const port = await freePort();
      ports.push(port);
      procs.push(
        startBotProcess({
          ...w.env,
          ROLE: 'worker',
          KEY_PREFIX: w.app.ctx.keys.prefix,
          REDIS_URL: w.app.ctx.config.REDIS_URL,
          LLM_PROVIDER: 'deepseek',
          HEALTH_PORT: String(port),
          EXECUTOR_CONCURRENCY: String(PER_WORKER),
          WORKSPACE_DIR: join(w.root, `ws-${i}`),
        }),
      );
    }
    const ready = (port: number) =>
      fetch(`http://127.0.0.1:${port}/readyz`)
        .then((r) => r.ok)
        .catch(() => false);
    await until(async () => (await Promise.all(ports.map(ready))).every(Boolean), 120_000, 'the workers');

    const ctx = w.app.ctx;
    const burst = async (name: string, n: number) => {
      const chats = Array.from({ length: n }, (_, i) => `${name}-${i}`);
      const before = await ctx.queues.executor.getCompletedCount();
      for (const chat of chats) await send(ctx, localMessage(`Please look at item ${chat}`, { chat }));
      const done = async () => (await ctx.queues.executor.getCompletedCount()) >= before + n;
      await until(done, 600_000, `every turn of ${name}`);
      return chats;
    };
    // Warm-up, untimed: each process's first turns load code paths the rest reuse.
    await burst('warm', 2 * workers * PER_WORKER);
    const cpu = () => procs.reduce((sum, p) => sum + cpuMs(p.child.pid), 0);
    const cpu0 = cpu();
    const t0 = performance.now();
    const started = Date.now();
    const chats = await burst('scale', turns);
    const seconds = (performance.now() - t0) / 1000;
    const cpuMsPerTurn = (cpu() - cpu0) / turns;

    let missing = 0;
    let twice = 0;
    for (const chat of chats) {
      const acks = (await botMessages(ctx, chat)).filter((m) => m.text.startsWith('On it:')).length;
      if (acks === 0) missing++;
      if (acks > 1) twice++;
    }
    const by: Record<string, number> = {};
    for (const job of await ctx.queues.executor.getJobs(['completed'], 0, -1)) {
      if ((job.finishedOn ?? 0) < started) continue;
      by[job.processedBy ?? '?'] = (by[job.processedBy ?? '?'] ?? 0) + 1;
    }
    const sharedBy = Object.values(by).sort((a, b) => b - a);
    return { workers, turns, seconds, rate: turns / seconds, missing, twice, sharedBy, cpuMsPerTurn };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await w.close();
  }
}

/** `npm run bench` rows: the same load with one and with three worker processes, same run. */
export async function benchScaleOut(turns = 60): Promise<BenchRow[]> {
  const load = () => loadavg()[0]?.toFixed(1);
  const before = load();
  const one = await runScaleOut(1, turns);
  const three = await runScaleOut(3, turns);
  const note = (r: ScaleRun) =>
    `${r.turns} executor turns (2 model requests of ${MODEL_MS} ms each), ${r.workers} worker process(es) × EXECUTOR_CONCURRENCY ${PER_WORKER}; turns per worker ${r.sharedBy.join(' / ')}; worker CPU ${r.cpuMsPerTurn.toFixed(0)} ms per turn; acknowledgements missing ${r.missing}, twice ${r.twice}`;
  return [
    { name: 'scale-out: turns/s, 1 worker', value: one.rate, unit: 'turns/s', note: note(one) },
    {
      name: 'scale-out: turns/s, 3 workers',
      value: three.rate,
      unit: 'turns/s',
      baseline: one.rate,
      ratio: three.rate / one.rate,
      note: `${note(three)}; ${cpus().length} cores, load average ${before} at the start, ${load()} at the end`,
    },
  ];
}

// `npx tsx bench/scale-out.ts [turns]` runs this alone and prints both runs.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const n = Number(process.argv[2] ?? 60);
  const rows = await benchScaleOut(n);
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  process.exit(0);
}
