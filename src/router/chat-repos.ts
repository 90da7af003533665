import type { Ctx } from '../context.ts';

type StoreCtx = Pick<Ctx, 'redis' | 'keys'>;

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** Whether `s` is a GitHub `owner/name` (GitHub's rules for logins and repository names). */
export function isRepoName(s: string): boolean {
  const [owner = '', name = '', ...rest] = s.split('/');
  return !rest.length && OWNER.test(owner) && NAME.test(name) && name !== '.' && name !== '..';
}

/**
 * The owner of `chatRepos` (issue 16): a chat's default repository, set by `/repo owner/name` in
 * the chat (a settings admin) or in the panel; read by the executor before `CHAT_REPOS`. Issue 31:
 * it also binds the chat to it (`boundRepos`): a Feishu chat works only in its bound repositories.
 */
export async function getChatRepo(ctx: StoreCtx, chat: string): Promise<string | undefined> {
  return (await ctx.redis.hget(ctx.keys.chatRepos(), chat)) ?? undefined;
}

/** Sets a chat's default repository (a name `isRepoName` accepts), or with `undefined` removes it. */
export async function setChatRepo(ctx: StoreCtx, chat: string, repo: string | undefined): Promise<void> {
  if (repo !== undefined && !isRepoName(repo)) throw new Error(`not a repository name: ${repo}`);
  if (repo) await ctx.redis.hset(ctx.keys.chatRepos(), chat, repo);
  else await ctx.redis.hdel(ctx.keys.chatRepos(), chat);
}

/** Every chat's default repository set here (not `CHAT_REPOS`), for the panel. */
export async function listChatRepos(ctx: StoreCtx): Promise<Record<string, string>> {
  return ctx.redis.hgetall(ctx.keys.chatRepos());
}
