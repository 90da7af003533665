import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import type { Ctx } from '../context.ts';
import { closeContext, createContext } from '../create-context.ts';
import { startDemoModel } from '../demo/demo-model.ts';
import { createLogger } from '../logger.ts';
import type { PromptSettings } from '../prompts/index.ts';
import { secretValuesOf } from '../redact-log.ts';
import { createRuntime } from '../runtime.ts';
import { dropKeysUnder } from '../store/local-redis-server.ts';
import { migrateStore } from '../store/migrations/migrate-store.ts';
import { apiRoutes } from '../web/api-routes.ts';
import { serveApp } from '../web/serve-app.ts';
import { startWorkers } from '../workers.ts';
import { type EvalFeishu, startEvalFeishu } from './eval-feishu.ts';
import { type EvalGitHub, startEvalGitHub } from './eval-github.ts';
import { type Traffic, wireModel } from './model-traffic.ts';
import { nullDecider } from './null-script.ts';
import { oracleDecider } from './oracle-script.ts';
import { oracleStages } from './oracle-stages.ts';
import { installPrompts } from './prompt-arms.ts';
import type { RecordProxy } from './record-proxy.ts';
import type { ReplayServer } from './replay-server.ts';
import type { Volatile } from './request-key.ts';
import type { EvalTask } from './task.ts';
import { makeTaskRepo } from './task-repo.ts';

/**
 * One task's world (issue 29): the real product in this process — its HTTP server with the
 * webhooks, its workers, the real sandbox — under a key prefix of its own on the run's Redis, with
 * a loopback GitHub serving the task's `repo/` over git, a loopback Feishu for a Feishu task, and
 * the model: the oracle (`--oracle`) or the one `EVAL_LLM_*` names.
 */

export interface TaskWorld {
  ctx: Ctx;
  /** The product's base URL (`/webhooks/github`, `/webhooks/feishu`). */
  url: string;
  repo: string;
  bare: string;
  /** A temporary folder of the run (HOME for git, checkouts). */
  dir: string;
  github: EvalGitHub;
  githubSecret: string;
  feishu?: EvalFeishu;
  chatId: string;
  /** Under `--replay`: the server answering from the recording, which knows the first miss. */
  replay?: ReplayServer;
  /** Under `--record`: the recorder, which knows an exchange it could not keep. */
  recorder?: RecordProxy;
  close(): Promise<void>;
}

export interface WorldOptions {
  redisUrl: string;
  prefix: string;
  /** `oracle`, the null baseline (`null`), or the product's LLM_* settings. */
  model: 'oracle' | 'null' | Record<string, string>;
  /** SANDBOX and the rest of the product's settings that hold for every task. */
  env: Record<string, string>;
  /** `--record DIR` / `--replay DIR`: the model's traffic recorded, or answered from a recording. */
  traffic?: Traffic;
  /** The task run's name in a recording (`<task>-<run>`); the task's id when absent. */
  label?: string;
  /** An A/B arm's prompt settings (`--prompts`), saved as the world's first version before it starts. */
  prompts?: PromptSettings;
}

const secret = () => randomBytes(20).toString('hex');

/** What the oracle's loopback model is to the product (`startOracle`). */
export const ORACLE_MODEL = { provider: 'compatible', model: 'switchyard-oracle', basePath: '/v1' } as const;
/** The null baseline's model name (`--baseline null`), served like the oracle's. */
export const NULL_MODEL = 'switchyard-null';

export async function startTaskWorld(task: EvalTask, opts: WorldOptions): Promise<TaskWorld> {
  const dir = mkdtempSync(join(tmpdir(), `switchyard-eval-${task.id}-`));
  const closers: (() => Promise<unknown> | unknown)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const c of closers.reverse()) await Promise.resolve(c()).catch(() => undefined);
  };
  try {
    return await build(task, opts, dir, closers, close);
  } catch (err) {
    await close();
    throw err;
  }
}

async function build(
  task: EvalTask,
  opts: WorldOptions,
  dir: string,
  closers: (() => Promise<unknown> | unknown)[],
  close: () => Promise<void>,
): Promise<TaskWorld> {
  const repo = `eval/${task.id}`;
  const chatId = `oc_eval_${randomBytes(6).toString('hex')}`;
  const bare = await makeTaskRepo(dir, task.repo, task.channel === 'github-pr-comment');
  const token = `ghp_eval${secret()}`;
  const github = await startEvalGitHub({ repo, bare, token, botLogin: 'switchyard-eval[bot]' });
  closers.push(() => github.close());
  const needsFeishu = [task.channel, ...task.followups.map((f) => f.channel)].includes('feishu');
  const feishuKeys = { encryptKey: secret(), verificationToken: secret() };
  const feishu = needsFeishu ? await startEvalFeishu(feishuKeys) : undefined;
  if (feishu) closers.push(() => feishu.close());
  const volatile: Volatile[] = [];
  const model = await modelSettings(task, opts, () => volatile, closers);
  const githubSecret = secret();
  mkdirSync(join(dir, 'workspaces'));
  const config = loadConfig({
    ...opts.env,
    ...model.env,
    REDIS_URL: opts.redisUrl,
    KEY_PREFIX: opts.prefix,
    LOG_LEVEL: process.env.EVAL_LOG_LEVEL ?? 'silent',
    GITHUB_TOKEN: token,
    GITHUB_WEBHOOK_SECRET: githubSecret,
    GITHUB_API_URL: github.url,
    GITHUB_BOT_LOGIN: github.botLogin,
    WORKSPACE_DIR: join(dir, 'workspaces'),
    CHAT_REPOS: `${chatId}=${repo}`,
    ...(feishu
      ? {
          FEISHU_APP_ID: feishu.appId,
          FEISHU_APP_SECRET: feishu.appSecret,
          FEISHU_ENCRYPT_KEY: feishuKeys.encryptKey,
          FEISHU_VERIFICATION_TOKEN: feishuKeys.verificationToken,
          FEISHU_DOMAIN: feishu.url,
          FEISHU_EVENT_MODE: 'http',
        }
      : {}),
  });
  const ctx = createContext(config, {
    log: createLogger(config.LOG_LEVEL, {}, { secrets: secretValuesOf(config) }),
  });
  closers.push(() => dropKeysUnder(opts.redisUrl, opts.prefix));
  closers.push(() => closeContext(ctx));
  await migrateStore(ctx);
  const runtime = await createRuntime(ctx);
  if (opts.prompts) await installPrompts(runtime.prompts, opts.prompts);
  const workers = await startWorkers(ctx, runtime);
  closers.push(() => workers.stop());
  const server = serveApp(ctx, apiRoutes(ctx, runtime), { port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  closers.push(() => new Promise((resolve) => server.close(() => resolve(undefined))));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // What this run made up and a recording must not depend on (`request-key.ts`).
  volatile.push(
    { value: dir, name: 'run-dir' },
    { value: chatId, name: 'chat' },
    { value: github.url, name: 'github' },
    { value: url, name: 'product' },
    { value: opts.prefix, name: 'prefix' },
    ...(feishu ? [{ value: feishu.url, name: 'feishu' }] : []),
  );
  const traffic = {
    ...(model.replay ? { replay: model.replay } : {}),
    ...(model.recorder ? { recorder: model.recorder } : {}),
  };
  return {
    ctx,
    url,
    repo,
    bare,
    dir,
    github,
    githubSecret,
    ...(feishu ? { feishu } : {}),
    chatId,
    ...traffic,
    close,
  };
}

/**
 * The model's settings for this task: the oracle's loopback model or the one the environment
 * names, behind the recorder under `--record`; under `--replay` the recording answers instead.
 */
async function modelSettings(
  task: EvalTask,
  opts: WorldOptions,
  volatile: () => readonly Volatile[],
  closers: (() => Promise<unknown> | unknown)[],
): Promise<Pick<TaskWorld, 'replay' | 'recorder'> & { env: Record<string, string> }> {
  const label = opts.label ?? task.id;
  if (opts.traffic?.mode === 'replay') {
    const wired = await wireModel(opts.traffic, undefined, label, volatile);
    closers.push(() => wired.close());
    return wired;
  }
  const env =
    opts.model === 'oracle' || opts.model === 'null'
      ? await startOracle(task, closers, opts.model)
      : opts.model;
  if (opts.traffic?.mode !== 'record') return { env };
  const wired = await wireModel(opts.traffic, env, label, volatile);
  closers.push(() => wired.close());
  return wired;
}

/** The oracle's loopback model for this task, or the null baseline's (issue 47). */
async function startOracle(
  task: EvalTask,
  closers: (() => Promise<unknown> | unknown)[],
  which: 'oracle' | 'null',
): Promise<Record<string, string>> {
  const apiKey = `sk-oracle-${secret()}`;
  const stages = which === 'oracle' ? await oracleStages(task) : undefined;
  const server = await startDemoModel({
    apiKey,
    repo: task.id,
    decide: stages ? oracleDecider(task, stages) : nullDecider(),
    prefixCache: true,
  });
  closers.push(() => server.close());
  return {
    LLM_API_KEY: apiKey,
    LLM_BASE_URL: server.baseURL,
    LLM_PROVIDER: ORACLE_MODEL.provider,
    LLM_MODEL: which === 'oracle' ? ORACLE_MODEL.model : NULL_MODEL,
  };
}
