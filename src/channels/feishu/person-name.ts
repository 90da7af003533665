import type { Ctx } from '../../context.ts';
import { feishuClient } from '../../sources/feishu-reads.ts';
import { contactName } from './contact-name.ts';
import { cachedName, cacheName } from './person-name-cache.ts';

/** An open_id as Feishu mints them: worth asking the contact API about. */
const OPEN_ID = /^ou_[A-Za-z0-9_-]{1,64}$/;

/** Look-ups under way in this process, so a page polled every 2 s asks Feishu once. */
const pending = new Map<string, Promise<string | undefined>>();

/**
 * A Feishu person's name by open_id (issue 33 item 3), from the cache (`person-name-cache.ts`)
 * or else the contact API, then kept: a name a day, a refusal (no scope, outside the app's
 * contacts range) ten minutes, Feishu not reached a minute. Undefined when Feishu is off or did not give a name: the panel
 * then shows the open_id shortened. A failed look-up is logged, never thrown.
 */
export async function feishuPersonName(ctx: Ctx, openId: string): Promise<string | undefined> {
  if (!OPEN_ID.test(openId)) return undefined;
  const client = feishuClient(ctx);
  if (!client) return undefined;
  const cached = await cachedName(ctx, openId);
  if (cached) return 'name' in cached ? cached.name : undefined;
  const key = `${ctx.keys.prefix}\0${openId}`;
  let p = pending.get(key);
  if (!p) {
    p = lookUp(ctx, client, openId).finally(() => pending.delete(key));
    pending.set(key, p);
  }
  return p;
}

async function lookUp(
  ctx: Ctx,
  client: NonNullable<ReturnType<typeof feishuClient>>,
  openId: string,
): Promise<string | undefined> {
  try {
    const got = await contactName(client, openId);
    if (got.ok) {
      await cacheName(ctx, openId, { name: got.name });
      return got.name;
    }
    ctx.log.info({ openId, code: got.code, msg: got.msg }, 'feishu contact look-up gave no name');
    await cacheName(ctx, openId, { failed: got.code });
  } catch (err) {
    // Not reached, or timed out: asked again a minute later.
    ctx.log.warn({ openId, err: (err as Error).message }, 'feishu contact look-up failed');
    await cacheName(ctx, openId, { failed: -1 });
  }
  return undefined;
}
