import { EventDispatcher, LoggerLevel } from '@larksuiteoapi/node-sdk';
import { isHttpError } from '../../../errors/http-error.ts';
import type { Logger } from '../../../logger.ts';
import type { FeishuEventHandler } from '../handle-event.ts';
import { larkLogger } from '../lark-client.ts';

/**
 * What the SDK's `WSClient` calls for every event frame (issue 16): the same handler as the HTTP
 * webhook (`handle-event.ts`), so both modes parse, dedupe and ingest alike. Its answer goes back
 * in the frame's acknowledgement (a card action's toast). A malformed event is acknowledged and
 * dropped — a redelivery would be just as malformed; any other failure (Redis down) throws, the
 * SDK acknowledges with code 500, and Feishu delivers the event again.
 */
export class IngestDispatcher extends EventDispatcher {
  readonly #handle: FeishuEventHandler;
  readonly #log: Logger;

  constructor(handle: FeishuEventHandler, log: Logger) {
    super({ logger: larkLogger(log), loggerLevel: LoggerLevel.error });
    this.#handle = handle;
    this.#log = log;
  }

  override async invoke(data: unknown): Promise<Record<string, unknown>> {
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      this.#log.warn('feishu long connection: an event that is not a JSON object was dropped');
      return {};
    }
    try {
      return await this.#handle(data as Record<string, unknown>);
    } catch (err) {
      if (isHttpError(err) && err.status === 400) {
        this.#log.warn({ err }, 'feishu long connection: a malformed event was dropped');
        return {};
      }
      throw err;
    }
  }
}
