import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import {
  assembleMain,
  type Builtins,
  buildSystemPrompt,
  createPromptReader,
  defaultBuiltinDirs,
  loadBuiltins,
  type PromptDeps,
  type PromptReader,
  savePolicy,
  savePrompts,
} from '../src/prompts/index.ts';
import { SECTION_FILES } from '../src/prompts/section-keys.ts';
import { createKeys } from '../src/store/keys.ts';
import { deletePrefix } from './kit.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const WARM = 2000;
const AFTER_SAVE = 300;
const WARMUP = 100;
const who = { source: 'api', who: 'bench' } as const;

/**
 * Issue 5 `bench/`: the cost of the system prompt for one model request (R-F3: read the latest
 * settings from Redis, one round trip, and assemble in R-E7 order), with a warm cache and right
 * after a save, against a same-run baseline of reading the built-in files and concatenating them.
 */
export async function benchPrompts(
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<BenchRow[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const keys = createKeys(`bench-${randomUUID().slice(0, 8)}`);
  try {
    const deps: PromptDeps = { redis, keys, builtins: await loadBuiltins(), sizeCap: 200_000 };
    await seed(deps);
    const reader = createPromptReader(deps);
    await measure(WARMUP, () => request(deps, reader));
    const warm = await measure(WARM, () => request(deps, reader));
    const afterSave = await measure(
      AFTER_SAVE,
      () => request(deps, reader),
      () => saveOnce(deps, reader),
    );
    const pure = await pureAssembly(deps.builtins, reader);
    return rows(warm, afterSave, pure);
  } finally {
    await deletePrefix(redis, keys.prefix);
    redis.disconnect();
  }
}

/** A realistic configuration: three team paragraphs, two overrides, a team skill, two rules. */
async function seed(deps: PromptDeps): Promise<void> {
  const team = { about: 'We build payments.', process: 'PRs need one approval.', conventions: 'Strict TS.' };
  const overrides = { work: { text: `${deps.builtins.sections.work}\n\nAlways run npm test.` } };
  await savePrompts(
    deps,
    { baseRevision: 0, team, overrides, skills: [{ name: 'notes', text: 'Be brief.' }] },
    who,
  );
  const rules = [
    { id: 'flaky', name: 'Flaky tests', instruction: 'Stabilise flaky tests.', enabled: true },
    { id: 'deps', name: 'Dependency bumps', instruction: 'Fix failing dependency bumps.', enabled: true },
  ];
  await savePolicy(deps, { mode: 'inferred', rules }, who);
}

const request = (deps: PromptDeps, reader: PromptReader) =>
  buildSystemPrompt(deps, reader, { role: 'main', sessionId: 'bench', environment: { deployment: 'bench' } });

interface Samples {
  values: number[];
  baseline: number[];
}

/**
 * Times `fn` `n` times, each followed by one baseline read, so load from elsewhere on the machine
 * hits both alike; `before` runs untimed ahead of each sample.
 */
async function measure(
  n: number,
  fn: () => Promise<unknown>,
  before?: () => Promise<unknown>,
): Promise<Samples> {
  const out: Samples = { values: [], baseline: [] };
  for (let i = 0; i < n; i++) {
    if (before) await before();
    out.values.push(await time(fn));
    out.baseline.push(await time(readAndConcat));
  }
  return out;
}

/** A save on top of the current head, so the next request must fetch and parse a new version. */
async function saveOnce(deps: PromptDeps, reader: PromptReader): Promise<void> {
  const { prompts } = await reader.read();
  await savePrompts(
    deps,
    { baseRevision: prompts.revision, team: { about: `Save ${prompts.revision}.` } },
    who,
  );
}

/** Assembly alone, settings already in hand: what the cache leaves per request besides Redis. */
async function pureAssembly(builtins: Builtins, reader: PromptReader): Promise<Samples> {
  const snap = await reader.read();
  const input = {
    builtins,
    settings: snap.prompts.config,
    policy: snap.policy,
    environment: { deployment: 'b' },
  };
  return measure(WARM, async () => assembleMain(input));
}

/** The baseline: read the built-in section files and join them, as a naive per-request build would. */
async function readAndConcat(): Promise<string> {
  const dir = defaultBuiltinDirs().prompts;
  const texts = await Promise.all(Object.values(SECTION_FILES).map((f) => readFile(join(dir, f), 'utf8')));
  return texts.join('\n\n');
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) * 1000;
}

function rows(warm: Samples, afterSave: Samples, pure: Samples): BenchRow[] {
  const r = (x: number) => Math.round(x * 10) / 10;
  const row = (name: string, s: Samples, p: number, note: string): BenchRow => {
    const [v, b] = [quantile(s.values, p), quantile(s.baseline, p)];
    return { name, value: r(v), unit: 'µs', baseline: r(b), ratio: Math.round((v / b) * 1000) / 1000, note };
  };
  const base = 'baseline: read + concatenate the built-in files, same run';
  const warmNote = `${warm.values.length} requests, 1 Redis round trip each; ${base}`;
  const saveNote = `${afterSave.values.length} requests, each right after a save; ${base}`;
  return [
    row('prompt per request, warm cache p50', warm, 0.5, warmNote),
    row('prompt per request, warm cache p99', warm, 0.99, warmNote),
    row('prompt per request, right after a save p50', afterSave, 0.5, saveNote),
    row('prompt per request, right after a save p99', afterSave, 0.99, saveNote),
    row('prompt assembly alone p50 (no Redis)', pure, 0.5, `${pure.values.length} assemblies; ${base}`),
  ];
}

// `npx tsx bench/prompts.ts` runs this bench alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchPrompts(), null, 2)}\n`);
}
