import type { Origin } from '../cards/card.ts';
import type { Ctx } from '../context.ts';
import { isLang, type Lang } from './lang.ts';

type StoreCtx = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/**
 * The owner of the per-chat language setting (issue 16): a chat id (Feishu, local) or a GitHub
 * repository, mapped to the language the host writes in there. Unset, the host answers in the
 * language of the request.
 */
export function chatOf(origin: Origin): string {
  return origin.source === 'github' ? origin.repo : origin.chatId;
}

/** The language fixed for a chat, or undefined; an unknown stored value is logged and ignored. */
export async function getChatLanguage(ctx: StoreCtx, chat: string): Promise<Lang | undefined> {
  const v = await ctx.redis.hget(ctx.keys.chatLanguages(), chat);
  if (v === null) return undefined;
  if (isLang(v)) return v;
  ctx.log.warn({ chat, value: v }, 'unknown chat language ignored');
  return undefined;
}

/** Fixes a chat's language, or with `undefined` lets the requests decide again. */
export async function setChatLanguage(ctx: StoreCtx, chat: string, lang: Lang | undefined): Promise<void> {
  if (lang) await ctx.redis.hset(ctx.keys.chatLanguages(), chat, lang);
  else await ctx.redis.hdel(ctx.keys.chatLanguages(), chat);
}

/** Every fixed chat language, for the panel. */
export async function listChatLanguages(ctx: StoreCtx): Promise<Record<string, Lang>> {
  const all = await ctx.redis.hgetall(ctx.keys.chatLanguages());
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, Lang] => isLang(e[1])));
}
