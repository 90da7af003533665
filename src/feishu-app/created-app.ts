import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { parseRecord } from '../store/parse-record.ts';

/**
 * The Feishu app the panel's scan created (issue 33 item 6), as the GitHub App's record
 * (`src/github-app/created-app.ts`): its id, the brand of the tenant that made it and who
 * confirmed it — never its secret, which is shown once for `.env`.
 */
export const CreatedFeishuAppSchema = z.object({
  appId: z.string(),
  brand: z.enum(['feishu', 'lark']),
  /** The open id of the person who scanned and confirmed, when Feishu said. */
  openId: z.string().optional(),
  createdAt: z.number(),
});
export type CreatedFeishuApp = z.infer<typeof CreatedFeishuAppSchema>;

type StoreCtx = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/** The owner of `feishuAppCreated`: the latest app made from the panel replaces the one before. */
export async function saveCreatedFeishuApp(ctx: StoreCtx, app: CreatedFeishuApp): Promise<void> {
  await ctx.redis.set(ctx.keys.feishuAppCreated(), JSON.stringify(CreatedFeishuAppSchema.parse(app)));
}

export async function loadCreatedFeishuApp(ctx: StoreCtx): Promise<CreatedFeishuApp | null> {
  const key = ctx.keys.feishuAppCreated();
  const raw = await ctx.redis.get(key);
  return raw ? parseRecord(ctx, CreatedFeishuAppSchema, raw, key) : null;
}
