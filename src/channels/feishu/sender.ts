import type { Client } from '@larksuiteoapi/node-sdk';
import type { Config } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import type { Effect, Sender } from '../../outbox/effect.ts';
import { neutralizeMentions } from '../../safety/neutralize-mentions.ts';
import { feishuUuid } from './feishu-uuid.ts';
import { createLarkClient } from './lark-client.ts';
import { larkSdk } from './lark-sdk.ts';
import { postBody } from './post-content.ts';
import { businessFailure, isStaleTokenFailure, toDeliveryError } from './to-delivery-error.ts';

type FeishuEffect = Extract<Effect, { op: `feishu.${string}` }>;

/** What every Feishu Open API call answers: `code` 0 on success, and the call's `data`. */
interface FeishuAnswer {
  code?: number | undefined;
  msg?: string | undefined;
  data?: { message_id?: string | undefined; reaction_id?: string | undefined } | undefined;
}

/** The Feishu sender over a fresh SDK client for this deployment's app credentials. */
export function feishuSenderFor(config: Config, log: Logger): Sender {
  return feishuSender(createLarkClient(config, log));
}

/**
 * The outbox's Feishu side (ARCHITECTURE "outbox"): one effect per call through the official SDK.
 * Sends and replies carry a `uuid` derived from the idempotency key, so Feishu itself drops a
 * repeat; failures become `DeliveryError`s that tell the worker to retry or give up.
 */
export function feishuSender(client: Client): Sender {
  return {
    async deliver(effect, key) {
      if (!effect.op.startsWith('feishu.')) throw new Error(`feishu sender cannot deliver ${effect.op}`);
      const e = effect as FeishuEffect;
      let answer: FeishuAnswer;
      try {
        answer = await call(client, e, feishuUuid(key));
      } catch (err) {
        if (isStaleTokenFailure(err)) await forgetToken(client);
        throw toDeliveryError(err, e.op);
      }
      if (answer.code !== undefined && answer.code !== 0) {
        if (isStaleTokenFailure(answer)) await forgetToken(client);
        throw businessFailure({ code: answer.code, ...(answer.msg ? { msg: answer.msg } : {}) }, e.op);
      }
      const id = answer.data?.message_id ?? answer.data?.reaction_id;
      return id ? { id } : {};
    },
  };
}

function call(client: Client, e: FeishuEffect, uuid: string): Promise<FeishuAnswer> {
  switch (e.op) {
    case 'feishu.react':
      return client.im.messageReaction.create({
        path: { message_id: e.messageId },
        data: { reaction_type: { emoji_type: e.emoji } },
      });
    case 'feishu.reply':
      return client.im.message.reply({
        path: { message_id: e.messageId },
        data: postBody(e.text, { uuid, ...(e.inThread ? { reply_in_thread: true } : {}) }),
      });
    case 'feishu.send':
      return client.im.message.create({
        params: { receive_id_type: 'chat_id' },
        data: postBody(e.text, { receive_id: e.chatId, uuid }),
      });
    case 'feishu.card.reply':
      return client.im.message.reply({
        path: { message_id: e.messageId },
        data: { msg_type: 'interactive', content: neutralizeMentions(JSON.stringify(e.card)), uuid },
      });
    case 'feishu.card.patch':
      return client.im.message.patch({
        path: { message_id: e.messageId },
        data: { content: neutralizeMentions(JSON.stringify(e.card)) },
      });
  }
}

/**
 * Drops the cached tenant token after Feishu refused it (revoked, rotated secret), so the retry
 * fetches a fresh one instead of failing until the cached one would have expired.
 */
async function forgetToken(client: Client): Promise<void> {
  await client.cache.set(larkSdk().CTenantAccessToken, undefined, 0, { namespace: client.appId });
}
