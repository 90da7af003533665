import type {
  Cache,
  Client,
  HttpInstance,
  HttpRequestOptions,
  Logger as LarkLogger,
} from '@larksuiteoapi/node-sdk';
import type { Config } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import { larkSdk } from './lark-sdk.ts';

/** A Feishu call that hangs must not hold an outbox worker slot for ever. */
export const FEISHU_TIMEOUT_MS = 10_000;

/**
 * The official SDK client pointed at `FEISHU_DOMAIN` (CONTRACT "Environment"). Each client gets
 * its own token cache: the SDK's default cache is process-global and keyed only by app id, so two
 * clients (or two tests) against different servers would share a token.
 */
export function createLarkClient(
  config: Pick<Config, 'FEISHU_APP_ID' | 'FEISHU_APP_SECRET' | 'FEISHU_DOMAIN'>,
  log: Logger,
): Client {
  if (!config.FEISHU_APP_ID || !config.FEISHU_APP_SECRET) {
    throw new Error('FEISHU_APP_ID and FEISHU_APP_SECRET are needed for the Feishu client');
  }
  const { Client, defaultHttpInstance, LoggerLevel } = larkSdk();
  return new Client({
    appId: config.FEISHU_APP_ID,
    appSecret: config.FEISHU_APP_SECRET,
    domain: config.FEISHU_DOMAIN.replace(/\/+$/, ''),
    cache: memoryCache(),
    // The SDK's instance unwraps `response.data` in an interceptor, which its axios typing can't say.
    httpInstance: withTimeout(defaultHttpInstance as unknown as HttpInstance, FEISHU_TIMEOUT_MS),
    logger: larkLogger(log),
    loggerLevel: LoggerLevel.warn,
  });
}

/** Routes the SDK's own logging into pino; its error logs duplicate what the sender reports, so they go to debug. */
export function larkLogger(log: Logger): LarkLogger {
  const child = log.child({ component: 'lark-sdk' });
  const fmt = (msg: unknown[]) => ({ detail: msg.length === 1 ? msg[0] : msg });
  return {
    error: (...m) => child.debug(fmt(m), 'lark sdk error'),
    warn: (...m) => child.warn(fmt(m), 'lark sdk warning'),
    info: (...m) => child.debug(fmt(m), 'lark sdk info'),
    debug: (...m) => child.trace(fmt(m), 'lark sdk debug'),
    trace: (...m) => child.trace(fmt(m), 'lark sdk trace'),
  };
}

function memoryCache(): Cache {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  const keyOf = (key: string | symbol, ns?: string) => `${ns ?? ''}\0${String(key)}`;
  return {
    async set(key, value, expire, options) {
      entries.set(keyOf(key as string | symbol, options?.namespace), {
        value,
        expiresAt: expire ?? Number.POSITIVE_INFINITY,
      });
      return true;
    },
    async get(key, options) {
      const k = keyOf(key as string | symbol, options?.namespace);
      const hit = entries.get(k);
      if (!hit) return undefined;
      if (hit.expiresAt <= Date.now()) {
        entries.delete(k);
        return undefined;
      }
      return hit.value;
    },
  };
}

/** The SDK's axios instance with a default per-request time-out (its own has none). */
function withTimeout(base: HttpInstance, timeout: number): HttpInstance {
  const opt = <D>(o?: HttpRequestOptions<D>): HttpRequestOptions<D> => ({ timeout, ...o });
  return {
    request: (o) => base.request(opt(o)),
    get: (u, o) => base.get(u, opt(o)),
    delete: (u, o) => base.delete(u, opt(o)),
    head: (u, o) => base.head(u, opt(o)),
    options: (u, o) => base.options(u, opt(o)),
    post: (u, d, o) => base.post(u, d, opt(o)),
    put: (u, d, o) => base.put(u, d, opt(o)),
    patch: (u, d, o) => base.patch(u, d, opt(o)),
  };
}
