import type { Hono } from 'hono';
import { ingest } from '../../cards/ingest.ts';
import { appendPersonMessage } from '../../channels/local/local-chat-log.ts';
import type { Ctx } from '../../context.ts';
import { EXAMPLES } from '../../demo/demo-tasks.ts';
import { HttpError } from '../../errors/http-error.ts';
import type { ApiRoutes } from '../app.ts';
import { localConversation } from './local-conversation.ts';
import {
  DEFAULT_LOCAL_CHAT,
  LocalChatId,
  LocalMessageBody,
  type LocalPersonMessage,
  localMessageDraft,
} from './local-message.ts';
import { readBody } from './read-body.ts';
import { whoOf } from './request-meta.ts';

/**
 * The panel's local chat ("Try it", issue 6): `POST /api/local/messages` ingests a `local` card
 * through the same path as a Feishu message and answers 202 `{ cardId, messageId, chat }`;
 * `GET /api/local/messages?chat=` answers the conversation; `GET /api/local/examples` the
 * requests Try it offers as buttons (issue 49: the demo's examples under `DEMO`, else none).
 */
export function localChatRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.post('/local/messages', async (c) => {
      const body = await readBody(c, LocalMessageBody);
      const who = whoOf(c);
      const { draft, messageId } = localMessageDraft(body, who);
      const result = await ingest(ctx, draft);
      const cardId = result.kind === 'new' ? result.card.id : result.cardId;
      const chat = body.chat ?? DEFAULT_LOCAL_CHAT;
      const message: LocalPersonMessage = {
        id: messageId,
        // The card's arrival time, so the "seen" reaction never sorts before the message.
        at: result.kind === 'new' ? result.card.receivedAt : ctx.now(),
        chat,
        who,
        text: body.text,
        replyTo: body.replyTo ?? null,
        cardId,
      };
      // After ingest, so a failed ingest leaves no message that no card stands behind.
      await appendPersonMessage(ctx, message);
      return c.json({ cardId, messageId, chat }, 202);
    });

    api.get('/local/examples', (c) => c.json({ examples: ctx.config.DEMO ? EXAMPLES : [] }));

    api.get('/local/messages', async (c) => {
      const chat = LocalChatId.safeParse(c.req.query('chat') ?? DEFAULT_LOCAL_CHAT);
      if (!chat.success) {
        throw new HttpError(400, 'bad_request', chat.error.issues.map((i) => i.message).join('; '));
      }
      return c.json(await localConversation(ctx, chat.data));
    });
  };
}
