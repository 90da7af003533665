import type { Hono } from 'hono';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { listChatLanguages, setChatLanguage } from '../../i18n/chat-language-store.ts';
import { isLang, LANGS } from '../../i18n/lang.ts';
import type { ApiRoutes } from '../app.ts';
import { readBody } from './read-body.ts';
import { whoOf } from './request-meta.ts';

const CHAT = /^[\w.:-]{1,128}$/;
const Body = z.object({ lang: z.string().max(40).nullable() });

/**
 * A chat's language (issue 16), the panel's field beside the chat's repository and the same
 * setting as `/lang` in chat: `GET /api/chat-languages` lists the chats with a fixed language;
 * `PUT /api/chat-languages/:chat` with `{ lang: "en" | "zh-CN" }` fixes it, `{ lang: null }`,
 * `""` or `"auto"` lets each message's language decide again; anything else is a 422. Behind the
 * admin token or a signed-in panel session, like every `/api` route.
 */
export function chatLanguagesRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.get('/chat-languages', async (c) => {
      const set = await listChatLanguages(ctx);
      return c.json({ chats: Object.entries(set).map(([chat, lang]) => ({ chat, lang })) });
    });
    api.put('/chat-languages/:chat', async (c) => {
      const chat = c.req.param('chat');
      if (!CHAT.test(chat)) throw new HttpError(400, 'bad_chat', 'a chat id is letters, digits and . _ : -');
      const { lang } = await readBody(c, Body);
      const value = lang?.trim() ?? '';
      const auto = value === '' || value === 'auto';
      if (!auto && !isLang(value))
        throw new HttpError(422, 'invalid', 'not a language', {
          errors: [{ key: 'lang', code: 'invalid_lang', message: `one of ${LANGS.join(', ')}, or auto` }],
        });
      const fixed = auto ? undefined : value;
      await setChatLanguage(ctx, chat, fixed);
      ctx.log.info({ chat, lang: fixed ?? null, by: whoOf(c) }, 'chat language set in the panel');
      return c.json({ chat, lang: fixed ?? null });
    });
  };
}
