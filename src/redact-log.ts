import { redisPasswordOf } from './store/redis-url.ts';

/**
 * What a log line may never carry (issue 14 "secrets hygiene"): credentials by key name at any
 * depth, the request configuration SDK errors drag along (axios `config` in the Lark SDK,
 * Octokit's `request` and `response.headers`), and the deployment's own secret values wherever
 * they appear in a string (the Lark SDK's token request body is a JSON string holding the app
 * secret). Errors are reduced to name, message, stack, code and status.
 */
export const REDACTED = '[redacted]';

/** Keys whose values are credentials, whatever object they sit in. */
const SECRET_KEY =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-hub-signature(-256)?|x-lark-signature|x-switchyard-csrf|password|passwd|secret|app_?secret|client_?secret|encrypt_?key|private_?key|api_?key|access_?token|refresh_?token|tenant_access_token|app_access_token|token|.*_token|.*_secret|secret_?key)$/i;

/** Keys of SDK errors that hold the whole request: headers, bodies, agents. Dropped. */
const REQUEST_KEYS = new Set(['config', 'request', 'req', 'options', 'agent', 'socket', '_options']);

const MAX_DEPTH = 8;
const MIN_SECRET_LENGTH = 6;

/** A function that scrubs one log value, given the deployment's secret values. */
export function logScrubber(secretValues: readonly (string | undefined)[]): (value: unknown) => unknown {
  const secrets = [
    ...new Set(secretValues.filter((s): s is string => Boolean(s && s.length >= MIN_SECRET_LENGTH))),
  ]
    // Longest first, so a secret containing another is replaced whole.
    .sort((a, b) => b.length - a.length);
  const scrubString = (s: string): string => {
    let out = s;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out.includes('PRIVATE KEY-----') ? REDACTED : out;
  };
  const walk = (value: unknown, depth: number, seen: WeakSet<object>): unknown => {
    if (typeof value === 'string') return scrubString(value);
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value) || depth > MAX_DEPTH) return '[…]';
    seen.add(value);
    if (value instanceof Error) return walk(errorFields(value), depth + 1, seen);
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1, seen));
    if (isBinary(value)) return `[${value.constructor.name}]`;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (SECRET_KEY.test(key)) out[key] = REDACTED;
      else if (REQUEST_KEYS.has(key) && typeof v === 'object' && v !== null) continue;
      else if (key === 'response' && typeof v === 'object' && v !== null) out[key] = responseFields(v);
      else if (key === 'headers' && typeof v === 'object' && v !== null) out[key] = REDACTED;
      else out[key] = walk(v, depth + 1, seen);
    }
    return out;
  };
  return (value) => walk(value, 0, new WeakSet());
}

/** An error as a plain object: what helps a reader, never its request. */
function errorFields(err: Error): Record<string, unknown> {
  const e = err as Error & { code?: unknown; status?: unknown; cause?: unknown; response?: unknown };
  const status = e.status ?? responseFields(e.response).status;
  return {
    type: err.name,
    message: err.message,
    ...(err.stack ? { stack: err.stack } : {}),
    ...(e.code !== undefined ? { code: e.code } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(e.cause !== undefined ? { cause: e.cause } : {}),
  };
}

/** Of an HTTP response, only its status and (already parsed) body data; never its headers. */
function responseFields(res: unknown): { status?: unknown; data?: unknown } {
  if (typeof res !== 'object' || res === null) return {};
  const r = res as { status?: unknown; data?: unknown };
  return {
    ...(r.status !== undefined ? { status: r.status } : {}),
    ...(r.data !== undefined ? { data: r.data } : {}),
  };
}

const isBinary = (v: object): v is ArrayBufferView | ArrayBuffer =>
  ArrayBuffer.isView(v) || v instanceof ArrayBuffer;

/** Config variables whose values are secrets (names ending in SECRET, TOKEN, API_KEY, …). */
const SECRET_VARIABLE = /(SECRET|TOKEN|API_KEY|PRIVATE_KEY|ENCRYPT_KEY)$/;

/** The secret values of a parsed config, the Redis password included, for `logScrubber`. */
export function secretValuesOf(config: Record<string, unknown>): string[] {
  const values = Object.entries(config)
    .filter(([name, v]) => SECRET_VARIABLE.test(name) && typeof v === 'string')
    .map(([, v]) => v as string);
  const redisPassword = typeof config.REDIS_URL === 'string' ? redisPasswordOf(config.REDIS_URL) : undefined;
  if (redisPassword) values.push(redisPassword);
  return values;
}
