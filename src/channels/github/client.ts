import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';
import type { Logger } from '../../logger.ts';
import { currentFence } from '../../store/fence.ts';

const GitHubOctokit = Octokit.plugin(throttling, retry);

/** A GitHub call that hangs must not hold an outbox worker slot (or a tool call) for ever. */
export const GITHUB_TIMEOUT_MS = 10_000;

/**
 * `fetch` with a time-out per request, started when the request is really sent (after the
 * throttling plugin's queue). Octokit reports an abort as a 500, which the outbox retries; a
 * retried comment first looks for its marker, so a request that did land is not posted twice.
 */
const fetchWithTimeout: typeof fetch = (input, init) => {
  const timeout = AbortSignal.timeout(GITHUB_TIMEOUT_MS);
  const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  return fetch(input, { ...init, signal });
};
export type GitHubClient = InstanceType<typeof GitHubOctokit>;

export interface GitHubClientOptions {
  /** `GITHUB_API_URL`: api.github.com, a GHES `/api/v3` URL, or a local fake. */
  baseUrl: string;
  /** A token (token mode) or an App JWT; none for anonymous reads. */
  auth?: string | undefined;
  log?: Logger | undefined;
  /** In-process retries of idempotent reads (GET/HEAD) on 5xx and network errors. */
  readRetries?: number;
  /**
   * Whose writes are spaced together (issue 18): the repository a client works on. Clients with
   * the same scope share one queue; other repositories' writes never wait behind it. Default: one
   * scope per API host.
   */
  throttleScope?: string;
  /**
   * The gap between two writes of one scope, ms (`GITHUB_WRITE_SPACING_MS`); writes that notify
   * people (comments, issues, pull requests) wait three times as long, as the throttling plugin's
   * defaults do (1 s and 3 s). Default 1000.
   */
  writeSpacingMs?: number;
}

/**
 * The throttling plugin's write and notification queues, one pair per spacing and process, so
 * clients with the same `throttleScope` share a queue as they share the plugin's own.
 */
const writeQueues = new Map<number, { write: Bottleneck.Group; notifications: Bottleneck.Group }>();

function writeQueuesFor(spacingMs: number) {
  let q = writeQueues.get(spacingMs);
  if (!q) {
    q = {
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: spacingMs }),
      notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 3 * spacingMs }),
    };
    writeQueues.set(spacingMs, q);
  }
  return q;
}

/**
 * An Octokit with the throttling and retry plugins, set up so that it never fights the outbox
 * (which owns retries and honours `Retry-After`): rate limits are never waited out in-process —
 * the error goes back to the caller with its headers — and non-idempotent requests (POST, PATCH,
 * GraphQL mutations) are never retried in-process, because GitHub has no idempotency keys and a
 * blind retry after a lost answer would post twice. Only reads retry briefly here. The throttling
 * plugin still spaces writes a second apart, as GitHub's secondary-limit guidance asks — per
 * `throttleScope` (issue 18: the plugin's queues are shared by every client with the same id, so
 * one id per host held every repository's 👀 behind every other's comments). The account-wide
 * content limit is the outbox's (`RATE_LIMITS`), and a secondary-limit answer still goes back to it
 * with its `Retry-After`.
 */
export function createGitHubClient(opts: GitHubClientOptions): GitHubClient {
  const log = opts.log?.child({ channel: 'github' });
  const octokit = new GitHubOctokit({
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    ...(opts.auth ? { auth: opts.auth } : {}),
    userAgent: 'switchyard',
    request: { fetch: fetchWithTimeout },
    log: {
      debug: () => {},
      info: () => {},
      warn: (msg: string) => log?.warn(msg),
      error: (msg: string) => log?.error(msg),
    },
    throttle: {
      id: opts.throttleScope ? `${opts.baseUrl} ${opts.throttleScope.toLowerCase()}` : opts.baseUrl,
      ...writeQueuesFor(opts.writeSpacingMs ?? 1000),
      onRateLimit: (retryAfter: number, options: { method: string; url: string }) => {
        log?.warn({ retryAfter, method: options.method, url: options.url }, 'github rate limit hit');
        return false;
      },
      onSecondaryRateLimit: (retryAfter: number, options: { method: string; url: string }) => {
        log?.warn(
          { retryAfter, method: options.method, url: options.url },
          'github secondary rate limit hit',
        );
        return false;
      },
    },
    retry: {
      retries: opts.readRetries ?? 2,
      // 429 is a rate limit: its wait belongs to the caller, with the server's Retry-After.
      doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451],
    },
  });
  octokit.hook.before('request', async (options) => {
    if (options.method !== 'GET' && options.method !== 'HEAD') {
      options.request = { ...options.request, retries: 0 };
      // Issue 46: a write of a fenced turn (a tool's) goes only while its runner holds the turn,
      // and is cut off if the turn is lost while it waits in the throttling queue.
      const fence = currentFence();
      if (fence) {
        await fence.check();
        const signal = options.request.signal as AbortSignal | undefined;
        options.request.signal = signal ? AbortSignal.any([signal, fence.signal]) : fence.signal;
      }
    }
  });
  return octokit;
}

/** Hosts whose URLs are GitHub objects besides github.com: a GHES API URL's own host. */
export function githubHostsFor(apiUrl: string): string[] {
  const host = new URL(apiUrl).hostname.toLowerCase();
  return host === 'api.github.com' ? [] : [host];
}

/** `owner/name` → Octokit's `{ owner, repo }`. */
export function splitRepo(fullName: string): { owner: string; repo: string } {
  const [owner = '', repo = ''] = fullName.split('/');
  return { owner, repo };
}
