import type { Ctx } from '../context.ts';
import { getChatRepo } from './chat-repos.ts';

type BindingCtx = Pick<Ctx, 'redis' | 'keys' | 'config'>;

/**
 * Issue 31: the repositories a chat works in, its default first: the one a settings admin bound
 * with `/repo owner/name` or the operator in the panel's Setup (`chatRepos`), then those
 * `CHAT_REPOS` binds to it. A Feishu ticket clones, reads and pushes only these.
 */
export async function boundRepos(ctx: BindingCtx, chat: string): Promise<string[]> {
  const set = await getChatRepo(ctx, chat);
  const all = [...(set ? [set] : []), ...(ctx.config.CHAT_REPOS.get(chat) ?? [])];
  return all.filter((r, i) => all.findIndex((o) => sameRepo(o, r)) === i);
}

/** GitHub's names are case-insensitive. */
export const sameRepo = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
