import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { readRecord } from '../../store/parse-record.ts';

type LogCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * The owner of the panel's local chats (issue 20): `localPeople(chat)`, the people's messages, and
 * `localChat(chat)`, what the bot sent there (replies, status entries; every chat's reactions
 * under `reactions`). Read through zod: an entry that fails is logged and left out.
 */

/** A person's message as kept in `keys.localPeople(chat)`. */
export const LocalPersonMessageSchema = z.object({
  id: z.string(),
  at: z.number(),
  chat: z.string(),
  who: z.string(),
  text: z.string(),
  replyTo: z.string().nullable(),
  cardId: z.string(),
});
export type LocalPersonMessage = z.infer<typeof LocalPersonMessageSchema>;

/** What the bot sent: the effect itself (its other fields kept), with an id and a time. */
export const BotEntrySchema = z.looseObject({
  id: z.string(),
  at: z.number(),
  op: z.string(),
  messageId: z.string(),
  text: z.string().optional(),
  emoji: z.string().optional(),
});
export type BotEntry = z.infer<typeof BotEntrySchema>;

/** Replaces the text of the chat entry with id ARGV[1], or appends ARGV[2] when there is none. */
const UPSERT_STATUS = `
local items = redis.call('LRANGE', KEYS[1], 0, -1)
for i, raw in ipairs(items) do
  local ok, entry = pcall(cjson.decode, raw)
  if ok and type(entry) == 'table' and entry.id == ARGV[1] then
    entry.text = ARGV[3]
    redis.call('LSET', KEYS[1], i - 1, cjson.encode(entry))
    return 0
  end
end
redis.call('RPUSH', KEYS[1], ARGV[2])
return 1
`;

export async function appendBotEntry(ctx: LogCtx, chatId: string, entry: BotEntry): Promise<void> {
  await ctx.redis.rpush(ctx.keys.localChat(chatId), JSON.stringify(entry));
}

/** A status message is one entry, its text replaced in place by each edit (one script). */
export async function upsertStatusEntry(
  ctx: LogCtx,
  chatId: string,
  entry: BotEntry & { text: string },
): Promise<void> {
  await ctx.redis.eval(
    UPSERT_STATUS,
    1,
    ctx.keys.localChat(chatId),
    entry.id,
    JSON.stringify(entry),
    entry.text,
  );
}

export async function appendPersonMessage(ctx: LogCtx, message: LocalPersonMessage): Promise<void> {
  await ctx.redis.rpush(ctx.keys.localPeople(message.chat), JSON.stringify(message));
}

async function readList<T>(ctx: LogCtx & Pick<Ctx, 'log'>, schema: z.ZodType<T>, key: string): Promise<T[]> {
  return (await ctx.redis.lrange(key, 0, -1)).flatMap((raw) => {
    const r = readRecord(ctx, schema, raw, key);
    return r.ok ? [r.value] : [];
  });
}

/** A chat's people's messages, the bot's entries there, and every chat's reactions. */
export async function readLocalChat(ctx: LogCtx & Pick<Ctx, 'log'>, chat: string) {
  const [people, bot, reactions] = await Promise.all([
    readList(ctx, LocalPersonMessageSchema, ctx.keys.localPeople(chat)),
    readList(ctx, BotEntrySchema, ctx.keys.localChat(chat)),
    readList(ctx, BotEntrySchema, ctx.keys.localChat('reactions')),
  ]);
  return { people, bot, reactions };
}
