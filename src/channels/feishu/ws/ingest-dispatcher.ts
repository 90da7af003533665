import type { EventDispatcher } from '@larksuiteoapi/node-sdk';
import { isHttpError } from '../../../errors/http-error.ts';
import type { Logger } from '../../../logger.ts';
import type { FeishuEventHandler } from '../handle-event.ts';
import { larkLogger } from '../lark-client.ts';
import { larkSdk } from '../lark-sdk.ts';

/**
 * What the SDK's `WSClient` calls for every event frame (issue 16): the same handler as the HTTP
 * webhook (`handle-event.ts`), so both modes parse, dedupe and ingest alike. Its answer goes back
 * in the frame's acknowledgement (a card action's toast). A malformed event is acknowledged and
 * dropped — a redelivery would be just as malformed; any other failure (Redis down) throws, the
 * SDK acknowledges with code 500, and Feishu delivers the event again. The SDK's class is
 * extended here, when a connection opens, not when this file loads (issue 46 item 7: `lark-sdk.ts`).
 */
export function createIngestDispatcher(handle: FeishuEventHandler, log: Logger): EventDispatcher {
  const { EventDispatcher: SdkDispatcher, LoggerLevel } = larkSdk();
  class IngestDispatcher extends SdkDispatcher {
    override async invoke(data: unknown): Promise<Record<string, unknown>> {
      if (!data || typeof data !== 'object' || Array.isArray(data)) {
        log.warn('feishu long connection: an event that is not a JSON object was dropped');
        return {};
      }
      try {
        return await handle(data as Record<string, unknown>);
      } catch (err) {
        if (isHttpError(err) && err.status === 400) {
          log.warn({ err }, 'feishu long connection: a malformed event was dropped');
          return {};
        }
        throw err;
      }
    }
  }
  return new IngestDispatcher({ logger: larkLogger(log), loggerLevel: LoggerLevel.error });
}
