import type { Logger as LarkLogger, WSClient } from '@larksuiteoapi/node-sdk';
import type { Ctx } from '../../../context.ts';
import type { Logger } from '../../../logger.ts';
import { APP_ID_SHAPE } from '../app-id.ts';
import type { FeishuEventHandler } from '../handle-event.ts';
import { larkSdk } from '../lark-sdk.ts';
import type { LeasedRun } from './hold-lease.ts';
import { createIngestDispatcher } from './ingest-dispatcher.ts';

/** After the SDK gives up (a refused app id or secret, retries exhausted), it is started again this much later. */
export const RESTART_AFTER_MS = 60_000;
/** A handshake that neither opens nor fails in this long is abandoned and retried. */
const HANDSHAKE_TIMEOUT_MS = 15_000;

/** The SDK's own app-id check: `start()` returns without a word for any other shape. */
export { APP_ID_SHAPE };

/**
 * Issue 16: the SDK's real `WSClient` (R-A1 "through the official SDK"): it asks
 * `FEISHU_DOMAIN/callback/ws/endpoint` for a connection URL with the app id and secret, keeps the
 * socket alive with pings, reassembles split events, reconnects, and acknowledges each event frame
 * with our answer. Events go to `handle`, the same path as the HTTP webhook. Only the lease holder
 * calls this (`start-long-connection.ts`), so the deployment has one connection.
 */
export function openLongConnection(
  ctx: Pick<Ctx, 'config' | 'log' | 'metrics'>,
  handle: FeishuEventHandler,
): LeasedRun {
  const { config, log } = ctx;
  const open = ctx.metrics.feishuWsOpen;
  const appId = config.FEISHU_APP_ID ?? '';
  if (!APP_ID_SHAPE.test(appId)) {
    throw new Error(`FEISHU_APP_ID "${appId}" is not an app id (cli_ and 16 hex digits)`);
  }
  const wsLog = log.child({ component: 'feishu-ws' });
  let restart: NodeJS.Timeout | undefined;
  const { LoggerLevel, WSClient } = larkSdk();
  const client: WSClient = new WSClient({
    appId,
    appSecret: config.FEISHU_APP_SECRET ?? '',
    domain: config.FEISHU_DOMAIN.replace(/\/+$/, ''),
    logger: sdkLogger(wsLog),
    loggerLevel: LoggerLevel.info,
    handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
    onReady: () => {
      open.set(1);
      wsLog.info('feishu long connection open');
    },
    onReconnecting: () => open.set(0),
    onReconnected: () => {
      open.set(1);
      wsLog.info('feishu long connection open again');
    },
    onError: (err) => {
      open.set(0);
      wsLog.error(
        { err: err.message, retryInMs: RESTART_AFTER_MS },
        'feishu long connection refused: check FEISHU_APP_ID/FEISHU_APP_SECRET, and that the app is a self-built app whose events and callbacks are received through the long connection (docs/feishu-setup.md)',
      );
      restart = setTimeout(() => void client.start({ eventDispatcher: dispatcher }), RESTART_AFTER_MS);
      restart.unref();
    },
  });
  const dispatcher = createIngestDispatcher(handle, wsLog);
  void client.start({ eventDispatcher: dispatcher });
  return {
    close() {
      clearTimeout(restart);
      client.close({ force: true });
      open.set(0);
    },
  };
}

/**
 * The SDK's log lines into pino. Unlike the API client's (`larkLogger`), its errors stay warnings:
 * for the connection they are the only sign of a refused or dropped socket.
 */
function sdkLogger(log: Logger): LarkLogger {
  const fmt = (msg: unknown[]) => ({ detail: msg.length === 1 ? msg[0] : msg });
  return {
    error: (...m) => log.warn(fmt(m), 'lark sdk error'),
    warn: (...m) => log.warn(fmt(m), 'lark sdk warning'),
    info: (...m) => log.debug(fmt(m), 'lark sdk info'),
    debug: (...m) => log.trace(fmt(m), 'lark sdk debug'),
    trace: (...m) => log.trace(fmt(m), 'lark sdk trace'),
  };
}
