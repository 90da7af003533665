import { z } from 'zod';
import { APP_ID_SHAPE } from './channels/feishu/app-id.ts';
import { DEFAULT_UI_FILE_GLOBS } from './executor/ui-files.ts';
import {
  ciConfigPaths,
  ciPathProblem,
  DEFAULT_CI_CONFIG_PATHS,
} from './executor/workspace/ci-config-paths.ts';
import { langFromName } from './i18n/locale.ts';
import { channelChats, channelUsers } from './safety/channel-entries.ts';
import { defaultContextTokens } from './session/context/context-window.ts';
import { pricesFrom } from './stats/cost.ts';
import { parseRedisUrl, RedisUrlError } from './store/redis-url.ts';

/** `LLM_PRICES` parses as a price table. */
function pricesValid(json: string): boolean {
  try {
    pricesFrom(json);
    return true;
  } catch {
    return false;
  }
}

const flag = (dflt: boolean) =>
  z
    .enum(['0', '1', 'true', 'false', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? dflt : ['1', 'true', 'yes'].includes(v)));

/** A context window: below 4k tokens no system prompt and tool list fits. */
const contextTokens = z.coerce
  .number()
  .int()
  .min(4096, 'a context window of at least 4096 tokens')
  .optional();

const url = (dflt: string) => z.url().default(dflt);

/**
 * Issue 45: the host uid of sandboxed commands under a root bot: outside the ranges login and
 * system users, systemd's dynamic users and containers, and the usual `/etc/subuid` blocks take.
 */
export const DEFAULT_SANDBOX_UID = 2_000_000_000;

/** `REDIS_URL` must parse as one Redis, a Cluster or a Sentinel group (issue 19). */
function redisUrlIssues(value: string, ctx: z.RefinementCtx): void {
  try {
    parseRedisUrl(value);
  } catch (err) {
    if (!(err instanceof RedisUrlError)) throw err;
    ctx.addIssue({ code: 'custom', message: err.message });
  }
}

const isClusterUrl = (value: string): boolean => {
  try {
    return parseRedisUrl(value).kind === 'cluster';
  } catch {
    return false;
  }
};

/** The model contracts the product speaks (R-H1). */
export const LLM_PROVIDERS = ['deepseek', 'openai', 'compatible', 'anthropic'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

const thinking = (dflt: 'enabled' | 'disabled') =>
  z.enum(['enabled', 'disabled'], { message: 'enabled or disabled' }).default(dflt);
const effort = z.enum(['high', 'max'], { message: 'high or max' }).default('high');

/** The provider a base URL belongs to when `LLM_PROVIDER` is unset: the public hosts by name, anything else `compatible`. */
export function providerOfBaseUrl(baseUrl: string): LlmProvider {
  const host = new URL(baseUrl).hostname.toLowerCase();
  if (host === 'api.deepseek.com') return 'deepseek';
  if (host === 'api.openai.com') return 'openai';
  if (host === 'api.anthropic.com') return 'anthropic';
  return 'compatible';
}

/**
 * `chat_id=owner/name,…` → Map(chat → the repositories bound to it, its default first). Issue 31:
 * a chat listed more than once is bound to each of its repositories (`oc_1=acme/web,oc_1=acme/api`).
 */
const chatRepos = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const map = new Map<string, string[]>();
    for (const pair of (v ?? '').split(',').filter((s) => s.trim())) {
      const [chat, repo] = pair.split('=').map((s) => s.trim());
      if (!chat || !repo || !/^[\w.-]+\/[\w.-]+$/.test(repo)) {
        ctx.addIssue({ code: 'custom', message: `"${pair}" is not chat_id=owner/name` });
        return z.NEVER;
      }
      const bound = map.get(chat) ?? [];
      if (!bound.some((r) => r.toLowerCase() === repo.toLowerCase())) bound.push(repo);
      map.set(chat, bound);
    }
    return map;
  });

export const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Read before the rest by `withEnvFile` (src/env-file.ts, issue 16); listed here so it is documented. */
    ENV_FILE: z.string().optional(),
    HOST: z.string().default('0.0.0.0'),
    ROLE: z.enum(['all', 'web', 'worker']).default('all'),
    /** Issue 16: a `ROLE=worker` process serves /healthz and /readyz here; unset, it opens no port. */
    HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** One Redis, a Cluster (`redis+cluster://`, or a list of nodes) or Sentinel (`redis+sentinel://`): src/store/redis-url.ts. */
    REDIS_URL: z.string().superRefine(redisUrlIssues).default('redis://127.0.0.1:6379'),
    /** Every key and queue starts with it; `{sy}` (a hash tag) keeps them in one Redis Cluster slot. */
    KEY_PREFIX: z
      .string()
      .regex(
        /^(\{[\w-]+\}|[\w-])[\w-]*$/,
        'letters, digits, _ and - only, optionally starting with one hash tag such as {sy}',
      )
      .default('sy'),
    // Issue 14: the token guards every setting and signs panel sessions; a short one is guessable.
    ADMIN_TOKEN: z
      .string()
      .min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`); a short token is guessable')
      .optional(),
    /**
     * Issue 17: OTLP/HTTP base URL (`/v1/traces` is appended) where spans are exported; unset, no
     * tracing SDK is started (src/tracing/start.ts).
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL such as http://collector:4318' })
      .optional(),
    /** The `service.name` of the exported spans. */
    OTEL_SERVICE_NAME: z.string().min(1).default('switchyard'),
    /** Bearer token for `/metrics`; without it `/metrics` answers 401 (issue 14). */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Issue 32: refused at start-up unless it has the console's shape (the SDK ignores any other). */
    FEISHU_APP_ID: z
      .string()
      .regex(
        APP_ID_SHAPE,
        'not a Feishu app id: cli_ and 16 hex digits, as the console shows it (cli_a1b2c3d4e5f60718)',
      )
      .optional(),
    FEISHU_APP_SECRET: z.string().min(1).optional(),
    FEISHU_ENCRYPT_KEY: z.string().min(1).optional(),
    FEISHU_VERIFICATION_TOKEN: z.string().min(1).optional(),
    FEISHU_DOMAIN: url('https://open.feishu.cn'),
    /**
     * Issue 16: how Feishu events arrive — `ws` (the SDK's long connection, no public URL needed) or
     * `http` (`POST /webhooks/feishu`). Unset: `ws` without a `PUBLIC_URL`, else `http` (`feishuEventMode`).
     */
    FEISHU_EVENT_MODE: z.enum(['ws', 'http'], { message: 'ws or http' }).optional(),
    /**
     * Issue 16: how long the one long-connection lease lasts without renewal: a dead holder's
     * connection is taken over by another web process within about this long.
     */
    FEISHU_WS_LEASE_MS: z.coerce.number().int().min(1000).default(20_000),
    /** The bot's public base URL (`https://bot.example.com`), where Feishu and GitHub reach `/webhooks/*`. */
    PUBLIC_URL: z.url().optional(),
    /**
     * Issue 49 item 3: where operators are told, as a JSON POST, when a ticket blocks or a
     * delivery fails for good (once per cause, at most `ALERTS_PER_MINUTE`); unset, nobody is.
     */
    ALERT_WEBHOOK_URL: z
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'an http(s) address')
      .optional(),
    GITHUB_WEBHOOK_SECRET: z.string().min(1).optional(),
    GITHUB_TOKEN: z.string().min(1).optional(),
    GITHUB_APP_ID: z.string().min(1).optional(),
    GITHUB_PRIVATE_KEY: z.string().min(1).optional(),
    GITHUB_API_URL: url('https://api.github.com'),
    GITHUB_BOT_LOGIN: z.string().min(1).optional(),
    /**
     * The gap between two writes to one repository (ms); comments, issues and pull requests wait
     * three times as long (GitHub's secondary-limit guidance: "at least one second between each
     * request"). Lower it only where secondary rate limits are off (a GitHub Enterprise Server
     * configured so); the test suite's loopback GitHub uses 0.
     */
    GITHUB_WRITE_SPACING_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    LLM_BASE_URL: url('https://api.deepseek.com'),
    LLM_API_KEY: z.string().min(1).optional(),
    /** Which provider's contract to speak (R-H1); unset: derived from `LLM_BASE_URL` (`llmProvider`). */
    LLM_PROVIDER: z.enum(LLM_PROVIDERS, { message: `one of ${LLM_PROVIDERS.join(', ')}` }).optional(),
    /** DeepSeek's current name (issue 12): `deepseek-chat` / `deepseek-reasoner` were retired on 2026-07-24. */
    LLM_MODEL: z.string().min(1).default('deepseek-flash'),
    /**
     * The answer's token cap per request; Anthropic's Messages API requires one (issue 12). It
     * holds the answer's thinking too (DeepSeek's chain of thought, Anthropic's budget): 32,768 is
     * DeepSeek's own default in thinking mode and fits every current Claude model; at 16,384 a
     * thinking executor's long steps were cut (issue 48 item 7, `bench/bad-habits-48.ts`).
     */
    LLM_MAX_TOKENS: z.coerce.number().int().min(1).default(32_768),
    /** Issue 28: a streamed answer with no chunk for this long is dropped and asked again. */
    LLM_STREAM_IDLE_MS: z.coerce.number().int().min(100).default(300_000),
    /** Issue 28 "model outages": the first back-off wait, the longest one, and their total before a request fails. */
    LLM_RETRY_BASE_MS: z.coerce.number().int().min(1).default(500),
    LLM_RETRY_MAX_MS: z.coerce.number().int().min(1).default(30_000),
    LLM_RETRY_TOTAL_MS: z.coerce.number().int().min(0).default(60_000),
    /** An executor turn the model failed (unreachable) runs again this many times, this long after, before a person is asked. */
    LLM_OUTAGE_TURN_RETRIES: z.coerce.number().int().min(0).default(2),
    LLM_OUTAGE_TURN_DELAY_MS: z.coerce.number().int().min(0).default(300_000),
    /** Issue 28 "pause means now": how often a running executor turn reads its ticket's pause. */
    PAUSE_POLL_MS: z.coerce.number().int().min(50).default(500),
    /** Model requests one executor turn may make (R-E4); past it, see `continueAfterCap`. */
    EXECUTOR_MAX_REQUESTS: z.coerce.number().int().min(3).default(40),
    MAIN_MODEL: z.string().min(1).optional(),
    EXECUTOR_MODEL: z.string().min(1).optional(),
    /** DeepSeek thinking mode per session kind: routing is cheap and latency-bound, executors do the hard work. */
    MAIN_THINKING: thinking('disabled'),
    EXECUTOR_THINKING: thinking('enabled'),
    MAIN_REASONING_EFFORT: effort,
    EXECUTOR_REASONING_EFFORT: effort,
    /** The model's context window in tokens (R-H2); unset: the known window of the model's name. */
    LLM_CONTEXT_TOKENS: contextTokens,
    MAIN_CONTEXT_TOKENS: contextTokens,
    EXECUTOR_CONTEXT_TOKENS: contextTokens,
    WORKSPACE_DIR: z.string().min(1).default('./data/workspaces'),
    /** Issue 29: where `npm run eval` writes its runs, which the panel's Eval page reads. */
    EVAL_RESULTS_DIR: z.string().min(1).default('./eval/results'),
    /** Issue 29: the panel's "Evaluate" runs with the scripted oracle (demos, tests) instead of `EVAL_LLM_*`. */
    EVAL_ORACLE: flag(false),
    /**
     * Issue 49: set by `npm run demo` only — Try it offers the demo's example requests, Home
     * expects its throwaway Redis without persistence, Setup says it cannot create a GitHub App.
     */
    DEMO: flag(false),
    /** A comma-separated subset of task ids the panel's "Evaluate" runs (`--only`); unset: every task. */
    EVAL_ONLY: z.string().min(1).optional(),
    /** The tasks folder the panel's "Evaluate" runs (`--tasks`); unset: the repository's `eval/tasks`. */
    EVAL_TASKS_DIR: z.string().min(1).optional(),
    /** The model `npm run eval` and the panel's "Evaluate" drive the product with (issue 29). */
    EVAL_LLM_API_KEY: z.string().min(1).optional(),
    EVAL_LLM_BASE_URL: z.string().min(1).optional(),
    EVAL_LLM_MODEL: z.string().min(1).optional(),
    EVAL_LLM_PROVIDER: z.string().min(1).optional(),
    /** Issue 19: how often each worker sweeps its own disk for checkouts no turn needs. */
    WORKSPACE_SWEEP_MS: z.coerce.number().int().min(1000).default(600_000),
    /** A checkout touched on this machine more recently than this is left for the next sweep. */
    WORKSPACE_SWEEP_GRACE_MS: z.coerce.number().int().min(0).default(600_000),
    CHAT_REPOS: chatRepos,
    ALLOWED_USERS: channelUsers,
    ALLOWED_CHATS: channelChats,
    /** Who may change prompt settings by asking the bot (R-H5): `feishu:ou_…`, `github:login`. */
    SETTINGS_ADMINS: channelUsers,
    PROMPT_SIZE_CAP: z.coerce.number().int().positive().default(200_000),
    TRUST_PROJECT_SKILLS: flag(false),
    TRUST_PROJECT_WORKFLOWS: flag(true),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(10_000),
    /**
     * Issue 19: jobs one worker process runs at once, per queue. Turns of one ticket never overlap
     * whatever these are (the ticket's turn lock); main-session turns are one at a time per deployment.
     */
    EXECUTOR_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
    ROUTE_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(16),
    OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(8),
    /** How long a worker's lock on a job lasts; a crashed worker's jobs resume elsewhere after about this long. */
    JOB_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
    /** Per-ticket circuit breaker (issue 8): messages sent and model requests made per hour. */
    BREAKER_MESSAGES_PER_HOUR: z.coerce.number().int().positive().default(30),
    BREAKER_MODEL_REQUESTS_PER_HOUR: z.coerce.number().int().positive().default(200),
    /**
     * Issue 33 item 5: budgets in USD that pause a ticket's model work when spent — per ticket
     * (all its executor requests) and per UTC day (every request); 0 or unset is none.
     */
    TICKET_BUDGET_USD: z.coerce.number().min(0).default(0),
    DAILY_BUDGET_USD: z.coerce.number().min(0).default(0),
    /** How often tickets paused for budget are looked at again (a raised budget, a new day). */
    BUDGET_CHECK_MS: z.coerce.number().int().min(1000).default(60_000),
    /** Issue 33 item 5: prices (JSON, `src/stats/prices.ts`'s shape) over the built-in table. */
    LLM_PRICES: z
      .string()
      .optional()
      .refine((v) => v === undefined || pricesValid(v), {
        message: 'JSON of provider → model → { input, cacheHit, output } in USD per million tokens',
      }),
    /** A ticket acknowledged and then silent this long (no executor step) is stalled (issue 8). */
    STALL_AFTER_MS: z.coerce.number().int().positive().default(900_000),
    WATCHDOG_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
    /** GitHub App mode: how often failed webhook deliveries are looked for and redelivered. */
    REDELIVERY_INTERVAL_MS: z.coerce.number().int().positive().default(600_000),
    /** R-H3: how repository code runs — `bwrap` (bubblewrap) or `none` (unconfined; unsafe, flagged loudly). */
    SANDBOX: z.enum(['bwrap', 'none']).default('bwrap'),
    /** R-H3: `egress` (outbound only, never the host's loopback, private ranges or metadata) or `none` (loopback only). */
    SANDBOX_NETWORK: z.enum(['none', 'egress']).default('egress'),
    /** R-H3 caps per command: memory, processes, the checkout's disk use, and `/tmp` and HOME (each). */
    SANDBOX_MEMORY_MB: z.coerce.number().int().min(64).default(2048),
    SANDBOX_PIDS: z.coerce.number().int().min(8).default(512),
    SANDBOX_DISK_MB: z.coerce.number().int().min(16).default(5120),
    /** Issue 45: the checkout's cap on files, folders and links; unset, one per 16 KiB of `SANDBOX_DISK_MB`. */
    SANDBOX_DISK_INODES: z.coerce.number().int().min(256).optional(),
    SANDBOX_TMP_MB: z.coerce.number().int().min(8).default(1024),
    /**
     * Issue 45: the uid (and gid) commands run as on the host where the bot is root: what they write
     * is that uid's, not root's. `0` keeps the bot's own uid. A non-root bot always keeps its own.
     */
    SANDBOX_UID: z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 2)
      .default(DEFAULT_SANDBOX_UID),
    /**
     * Issue 15: the Chromium the `screenshot` tool drives inside the sandbox (`npm run setup`
     * installs Debian's); unset, the first of the usual places that exists.
     */
    CHROMIUM_PATH: z.string().min(1).optional(),
    /**
     * Issue 15 / R-C6: comma-separated globs of the files whose change is a UI change (then ready
     * needs a "before" and an "after" screenshot); `*.css` matches a name anywhere, `a/**` a path.
     */
    UI_FILE_GLOBS: z.string().default(DEFAULT_UI_FILE_GLOBS),
    /**
     * Issue 31: comma-separated paths whose change is a change to CI (`.github/workflows/` always
     * is one): a push changing them needs a request for it from someone who administers the repository.
     */
    CI_CONFIG_PATHS: z
      .string()
      .default(DEFAULT_CI_CONFIG_PATHS)
      .transform((v, ctx) => {
        const paths = ciConfigPaths(v);
        for (const p of paths) {
          const problem = ciPathProblem(p);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }
        return paths;
      }),
    /** How long a looked-up GitHub repository permission is trusted (R-A5). */
    PERMISSION_CACHE_SECONDS: z.coerce.number().int().positive().default(300),
    /** Days closed tickets, their transcripts, cards and full texts are kept (issue 14). */
    RETENTION_DAYS: z.coerce.number().positive().default(30),
    /** A commit or branch a message names attaches it by code only this many days after its ticket took it. */
    ATTACH_RECENT_DAYS: z.coerce.number().positive().default(14),
    /** Entries the cards-by-time index keeps at most (oldest dropped first). */
    CARDS_INDEX_MAX: z.coerce.number().int().positive().default(100_000),
    /**
     * Issue 31: hours a card that is no request (mentions nobody) keeps its text until it attaches
     * to a ticket, which extends it to `RETENTION_DAYS`.
     */
    UNATTACHED_CARD_TTL_HOURS: z.coerce.number().positive().default(24),
    /**
     * Issue 31: cards one author (any source but the panel's chat; checks excepted) and one place
     * (a GitHub repository, a Feishu chat) may add per minute; past it a webhook is answered
     * `rate_limited` and nothing is stored. 0 turns the limit off.
     */
    INGEST_RATE_PER_AUTHOR: z.coerce.number().int().min(0).default(60),
    INGEST_RATE_PER_REPO: z.coerce.number().int().min(0).default(600),
    /**
     * Issue 45: polite refusals the bot posts a day in one place (a GitHub repository, a Feishu
     * chat), besides one per outsider per place a day; 0 posts none. Outsiders' mentions spent
     * the comment budget a writer's acknowledgement needs.
     */
    REFUSALS_PER_PLACE_PER_DAY: z.coerce.number().int().min(0).default(10),
    /**
     * Issue 31: the share of Redis's `maxmemory` (or of `REDIS_MEMORY_LIMIT_MB` where `maxmemory`
     * is 0) past which the memory watcher warns, checked every `REDIS_MEMORY_WATCH_MS`.
     */
    REDIS_MEMORY_WARN_PERCENT: z.coerce.number().positive().max(100).default(80),
    REDIS_MEMORY_LIMIT_MB: z.coerce.number().positive().optional(),
    REDIS_MEMORY_WATCH_MS: z.coerce.number().int().positive().default(60_000),
    /** How often the retention sweep runs (safety queue). */
    RETENTION_SWEEP_MS: z.coerce.number().int().positive().default(3_600_000),
    /**
     * Failed panel sign-ins per address, and in all, per 15 minutes (issue 14) past which every
     * attempt waits first (issue 31): from one address `SIGN_IN_DELAY_MS`, doubling with each
     * further failure; in all, the whole `SIGN_IN_DELAY_MAX_MS`. The right token always passes.
     */
    SIGN_IN_FAILURES_PER_IP: z.coerce.number().int().positive().default(10),
    SIGN_IN_FAILURES_GLOBAL: z.coerce.number().int().positive().default(100),
    SIGN_IN_DELAY_MS: z.coerce.number().int().positive().default(1000),
    SIGN_IN_DELAY_MAX_MS: z.coerce.number().int().positive().max(60_000).default(30_000),
    /**
     * Issue 31: comma-separated addresses of reverse proxies in front of the bot. A request from
     * one has its client read from `X-Forwarded-For` (the nearest address that is not such a
     * proxy); otherwise the header is ignored and the client is the connection's peer.
     */
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    /** The doctor's checks in the background at start-up (issue 12): `quick` skips the model round trip. */
    STARTUP_DOCTOR: z.enum(['full', 'quick', 'off'], { message: 'full, quick or off' }).default('quick'),
    /**
     * The doctor's language (issue 16): `en` or `zh-CN` (`zh`, `zh_CN.UTF-8` work too). Unset, the
     * start-up line is English and `npm run doctor` follows the locale (`LANG`, `LC_ALL`).
     */
    DOCTOR_LANG: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === '') return undefined;
        const lang = langFromName(v);
        if (!lang) ctx.addIssue({ code: 'custom', message: 'en or zh-CN' });
        return lang;
      }),
  })
  .superRefine((env, ctx) => {
    // Issue 19: a multi-key script or MULTI on Redis Cluster needs all its keys in one slot.
    if (isClusterUrl(env.REDIS_URL) && !env.KEY_PREFIX.startsWith('{')) {
      ctx.addIssue({
        code: 'custom',
        path: ['KEY_PREFIX'],
        message: `must start with a hash tag on Redis Cluster, e.g. {${env.KEY_PREFIX}}, so every key and queue of the deployment shares one slot`,
      });
    }
    // Issue 14: over HTTP, without the key anyone could post unsigned events. The long connection
    // (issue 16) is authenticated by the app secret when it opens, and needs no key.
    const mode = eventModeOf(env);
    if (env.FEISHU_APP_ID && env.FEISHU_APP_SECRET && !env.FEISHU_ENCRYPT_KEY && mode === 'http') {
      ctx.addIssue({
        code: 'custom',
        path: ['FEISHU_ENCRYPT_KEY'],
        message:
          'required when Feishu events come over HTTP (FEISHU_EVENT_MODE=http, or a PUBLIC_URL without FEISHU_EVENT_MODE): set the Encrypt Key from the Feishu console (Events and callbacks → Encryption strategy), so every event is signed',
      });
    }
    if (Boolean(env.FEISHU_APP_ID) !== Boolean(env.FEISHU_APP_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.FEISHU_APP_ID ? 'FEISHU_APP_SECRET' : 'FEISHU_APP_ID'],
        message: 'FEISHU_APP_ID and FEISHU_APP_SECRET go together: set both or neither',
      });
    }
    if (Boolean(env.GITHUB_APP_ID) !== Boolean(env.GITHUB_PRIVATE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.GITHUB_APP_ID ? 'GITHUB_PRIVATE_KEY' : 'GITHUB_APP_ID'],
        message: 'GITHUB_APP_ID and GITHUB_PRIVATE_KEY go together: set both or neither',
      });
    }
  });

export type Env = z.output<typeof EnvSchema>;

/** CONTRACT "Environment": `FEISHU_EVENT_MODE`, or `ws` when no public URL is configured, else `http`. */
function eventModeOf(env: {
  FEISHU_EVENT_MODE?: 'ws' | 'http' | undefined;
  PUBLIC_URL?: string | undefined;
}) {
  return env.FEISHU_EVENT_MODE ?? (env.PUBLIC_URL ? 'http' : 'ws');
}

export type Config = Env & {
  /** Feishu is on when the app credentials are set. */
  feishuEnabled: boolean;
  /** How Feishu events arrive (issue 16): `FEISHU_EVENT_MODE`, else `ws` without `PUBLIC_URL`, else `http`. */
  feishuEventMode: 'ws' | 'http';
  /** GitHub is on when the webhook secret and a token or an app are set. */
  githubEnabled: boolean;
  mainModel: string;
  executorModel: string;
  /** `LLM_PROVIDER`, or the one `LLM_BASE_URL` belongs to. */
  llmProvider: LlmProvider;
  /** Context windows per session kind (R-H2): `*_CONTEXT_TOKENS`, or the model's known window. */
  mainContextTokens: number;
  executorContextTokens: number;
};

/** Thrown when the environment is wrong; `message` is one line per bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError' as const;
  readonly code = 'config_invalid';
}

/**
 * One line per problem, naming its variable. Issue 32: numbers are told in words ("PORT must be a
 * number", "… at most 65535") rather than in zod's terms.
 */
function issueLine(issue: z.core.$ZodIssue): string {
  const name = issue.path.join('.') || 'environment';
  if (issue.code === 'invalid_type' && issue.expected === 'number') return `${name} must be a number`;
  if (issue.code === 'invalid_type' && issue.expected === 'int') return `${name} must be a whole number`;
  // zod's own words ("Too small: expected number to be >=1000"); a message of ours is kept.
  const zods = /^Too (small|big):/.test(issue.message);
  if (zods && issue.code === 'too_small' && issue.origin === 'number')
    return `${name} must be at least ${issue.minimum}`;
  if (zods && issue.code === 'too_big' && issue.origin === 'number')
    return `${name} must be at most ${issue.maximum}`;
  return `${name}: ${issue.message}`;
}

/**
 * Parses the environment once. Every problem is reported at once, each line naming its variable,
 * so an operator fixes the whole `.env` in one go.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(issueLine);
    throw new ConfigError(`Bad configuration: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  return {
    ...e,
    feishuEnabled: Boolean(e.FEISHU_APP_ID && e.FEISHU_APP_SECRET),
    feishuEventMode: eventModeOf(e),
    githubEnabled: Boolean(e.GITHUB_WEBHOOK_SECRET && (e.GITHUB_TOKEN || e.GITHUB_APP_ID)),
    mainModel: e.MAIN_MODEL ?? e.LLM_MODEL,
    executorModel: e.EXECUTOR_MODEL ?? e.LLM_MODEL,
    llmProvider: e.LLM_PROVIDER ?? providerOfBaseUrl(e.LLM_BASE_URL),
    mainContextTokens:
      e.MAIN_CONTEXT_TOKENS ?? e.LLM_CONTEXT_TOKENS ?? defaultContextTokens(e.MAIN_MODEL ?? e.LLM_MODEL),
    executorContextTokens:
      e.EXECUTOR_CONTEXT_TOKENS ??
      e.LLM_CONTEXT_TOKENS ??
      defaultContextTokens(e.EXECUTOR_MODEL ?? e.LLM_MODEL),
  };
}
