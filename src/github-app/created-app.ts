import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { parseRecord } from '../store/parse-record.ts';

/**
 * The App the panel's manifest flow created (issue 16), without any secret: its id, names and
 * where to install it. The key, webhook secret and client secret are shown once and never stored.
 */
export const CreatedAppSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  owner: z.string(),
  htmlUrl: z.string(),
  installUrl: z.string(),
  clientId: z.string(),
  createdAt: z.number(),
});
export type CreatedApp = z.infer<typeof CreatedAppSchema>;

type StoreCtx = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/** The owner of `githubAppCreated`: the latest App made from the panel replaces the one before. */
export async function saveCreatedApp(ctx: StoreCtx, app: CreatedApp): Promise<void> {
  await ctx.redis.set(ctx.keys.githubAppCreated(), JSON.stringify(CreatedAppSchema.parse(app)));
}

export async function loadCreatedApp(ctx: StoreCtx): Promise<CreatedApp | null> {
  const key = ctx.keys.githubAppCreated();
  const raw = await ctx.redis.get(key);
  return raw ? parseRecord(ctx, CreatedAppSchema, raw, key) : null;
}
