import type { Hono } from 'hono';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { isRepoName, listChatRepos, setChatRepo } from '../../router/chat-repos.ts';
import type { ApiRoutes } from '../app.ts';
import { readBody } from './read-body.ts';
import { whoOf } from './request-meta.ts';

const CHAT = /^[\w.:-]{1,128}$/;
const Body = z.object({ repo: z.string().max(200).nullable() });

/**
 * A chat's default repository (issue 16), the panel's field beside `/repo owner/name` in chat; it
 * binds the chat to it too (issue 31, `boundRepos`), as each `CHAT_REPOS` entry does:
 * `GET /api/chat-repos` lists what is set here and what `CHAT_REPOS` says (the one set here is the default);
 * `PUT /api/chat-repos/:chat` with `{ repo }` sets it, `{ repo: null }` or `""` removes it.
 */
export function chatReposRoutes(ctx: Ctx): ApiRoutes {
  return (api: Hono) => {
    api.get('/chat-repos', async (c) => {
      const set = await listChatRepos(ctx);
      return c.json({
        chats: Object.entries(set).map(([chat, repo]) => ({ chat, repo })),
        fromEnv: [...ctx.config.CHAT_REPOS].flatMap(([chat, repos]) => repos.map((repo) => ({ chat, repo }))),
      });
    });
    api.put('/chat-repos/:chat', async (c) => {
      const chat = c.req.param('chat');
      if (!CHAT.test(chat)) throw new HttpError(400, 'bad_chat', 'a chat id is letters, digits and . _ : -');
      const { repo } = await readBody(c, Body);
      const value = repo?.trim() || undefined;
      if (value !== undefined && !isRepoName(value))
        throw new HttpError(422, 'invalid', 'not a repository name', {
          errors: [{ key: 'repo', code: 'invalid_repo', message: 'write owner/name, for example acme/api' }],
        });
      await setChatRepo(ctx, chat, value);
      ctx.log.info({ chat, repo: value ?? null, by: whoOf(c) }, 'chat repository set in the panel');
      return c.json({ chat, repo: value ?? null });
    });
  };
}
