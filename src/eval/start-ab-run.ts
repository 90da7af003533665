import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceNodeArgs } from '../cli/source-node.ts';
import type { Ctx } from '../context.ts';
import { BOT_SECRETS } from '../executor/workspace/command-env.ts';
import { type AbRunState, releaseAbLease, renewAbLease, takeAbLease, writeAbRun } from './ab-run-store.ts';

type RunCtx = Pick<Ctx, 'redis' | 'keys' | 'config' | 'log'>;

/** What the panel evaluates: a saved version, or a draft as PUT /api/prompts takes it. */
export type AbCandidate = { kind: 'version'; revision: number } | { kind: 'draft'; settings: unknown };

const LEASE_MS = 30_000;
const KEPT_LINES = 40;

/**
 * How this process runs the eval CLI beside it: the compiled `cli.js` with node itself where the
 * product runs compiled (the Docker image, which has no tsx), else `cli.ts` — with node itself
 * where it strips types, through tsx (a checkout's dev dependency) where it does not; null when
 * none can run.
 */
export function evalCli(
  here = import.meta.url,
  stripsTypes = Boolean(process.features.typescript),
): string[] | null {
  const dir = dirname(fileURLToPath(here));
  const js = join(dir, 'cli.js');
  if (here.endsWith('.js') && existsSync(js)) return [js];
  if (!here.endsWith('.ts')) return null;
  try {
    return [...sourceNodeArgs(stripsTypes), join(dir, 'cli.ts')];
  } catch {
    return null;
  }
}

/** Why the panel cannot start a run: nothing says which model, or one is running. */
export type StartRefusal = { code: 'eval_not_configured' | 'eval_running'; message: string };

/** The variables to set, or null when the run has a model (the oracle, or `EVAL_LLM_*`). */
function evalModelMissing(config: Ctx['config']): string | null {
  if (config.EVAL_ORACLE || config.EVAL_LLM_API_KEY) return null;
  return 'no model is configured for eval: set EVAL_LLM_API_KEY (and EVAL_LLM_PROVIDER, EVAL_LLM_MODEL, EVAL_LLM_BASE_URL as needed), or EVAL_ORACLE=1 for the scripted oracle';
}

/**
 * Issue 29: starts `npm run eval -- --prompts <candidate>` as a child of this web process, holding
 * the deployment's A/B lease while it runs and keeping its state (the last lines of its output,
 * the results folder it wrote) where every web process reads it.
 */
export async function startAbRun(ctx: RunCtx, candidate: AbCandidate): Promise<AbRunState | StartRefusal> {
  const missing = evalModelMissing(ctx.config);
  if (missing) return { code: 'eval_not_configured', message: missing };
  const cli = evalCli();
  if (!cli)
    return {
      code: 'eval_not_configured',
      message: 'this build has no eval runner: run npm run eval -- --prompts from a checkout',
    };
  const holder = randomUUID();
  if (!(await takeAbLease(ctx, holder, LEASE_MS)))
    return { code: 'eval_running', message: 'an A/B eval run is under way; wait for it to finish' };
  let work: string | undefined;
  let spec = `r${candidate.kind === 'version' ? candidate.revision : 0}`;
  try {
    work = mkdtempSync(join(tmpdir(), 'switchyard-eval-ab-'));
    if (candidate.kind === 'draft') {
      spec = join(work, 'draft.json');
      writeFileSync(spec, JSON.stringify(candidate.settings));
    }
  } catch (err) {
    // Nothing started: the lease and the folder go, so the next run is not refused for 30 s.
    if (work) rmSync(work, { recursive: true, force: true });
    await releaseAbLease(ctx, holder);
    throw err;
  }
  const folder = work;
  const state: AbRunState = {
    id: holder,
    state: 'running',
    candidate: candidate.kind === 'draft' ? 'draft' : spec,
    oracle: ctx.config.EVAL_ORACLE,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    exitCode: null,
    run: null,
    lines: [],
  };
  await writeAbRun(ctx, state);
  runChild(ctx, state, [...cli, ...evalArgs(ctx.config, spec)], () =>
    rmSync(folder, { recursive: true, force: true }),
  );
  return state;
}

function evalArgs(config: Ctx['config'], spec: string): string[] {
  return [
    '--prompts',
    spec,
    '--results',
    resolve(config.EVAL_RESULTS_DIR),
    ...(config.EVAL_ORACLE ? ['--oracle'] : []),
    ...(config.EVAL_ONLY ? ['--only', config.EVAL_ONLY] : []),
    ...(config.EVAL_TASKS_DIR ? ['--tasks', resolve(config.EVAL_TASKS_DIR)] : []),
  ];
}

/**
 * The child's environment: this process's without the bot's own secrets (the run uses only the
 * eval model; its task worlds are loopback fakes), with the product's Redis and the eval model
 * from config.
 */
export function childEnv(config: Ctx['config'], env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const pick = {
    REDIS_URL: config.REDIS_URL,
    KEY_PREFIX: config.KEY_PREFIX,
    PROMPT_SIZE_CAP: String(config.PROMPT_SIZE_CAP),
    EVAL_LLM_API_KEY: config.EVAL_LLM_API_KEY,
    EVAL_LLM_BASE_URL: config.EVAL_LLM_BASE_URL,
    EVAL_LLM_MODEL: config.EVAL_LLM_MODEL,
    EVAL_LLM_PROVIDER: config.EVAL_LLM_PROVIDER,
    // The run is priced as the panel prices the product's own requests (an .env file's too).
    LLM_PRICES: config.LLM_PRICES,
  };
  const set = Object.entries(pick).filter((e): e is [string, string] => e[1] !== undefined);
  // The CLI reads its own environment as `npm run eval` does (PATH, HOME, SANDBOX, LLM_PRICES…).
  const own = Object.fromEntries(
    Object.entries(env).filter(([k]) => !(BOT_SECRETS as readonly string[]).includes(k)),
  );
  return { ...own, ...Object.fromEntries(set) };
}

function runChild(ctx: RunCtx, state: AbRunState, args: string[], cleanup: () => void): void {
  const child = spawn(process.execPath, args, {
    env: childEnv(ctx.config),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = ctx.log.child({ evalRun: state.id });
  let partial = '';
  let dirty = false;
  const take = (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      const results = /^results: (.+)\/results\.json \(/.exec(line)?.[1];
      if (results) state.run = basename(results);
    }
    state.lines = [...state.lines, ...parts].slice(-KEPT_LINES);
    dirty = true;
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const timer = setInterval(() => {
    void renewAbLease(ctx, state.id, LEASE_MS).catch((err) => log.warn({ err }, 'eval lease renewal failed'));
    if (dirty) {
      dirty = false;
      void writeAbRun(ctx, state).catch((err) => log.warn({ err }, 'eval state write failed'));
    }
  }, 1000);
  timer.unref();
  let ended = false;
  const end = (code: number | null) => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    cleanup();
    if (partial) state.lines = [...state.lines, partial].slice(-KEPT_LINES);
    // Results written is a finished run (an unresolved task is a result); none is a failed one.
    state.state = state.run ? 'finished' : 'failed';
    state.exitCode = code;
    state.finishedAt = new Date().toISOString();
    log.info({ code, run: state.run }, 'eval A/B run ended');
    void writeAbRun(ctx, state)
      .then(() => releaseAbLease(ctx, state.id))
      .catch((err) => log.error({ err }, 'eval run end not recorded'));
  };
  // A child that cannot start (EAGAIN, EMFILE) is a failed run, not a crash of the web process.
  child.on('error', (err) => {
    state.lines = [...state.lines, `the eval run could not start: ${err.message}`].slice(-KEPT_LINES);
    end(null);
  });
  child.on('close', (code) => end(code));
}
