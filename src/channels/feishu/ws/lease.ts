import type { Ctx } from '../../../context.ts';
import * as lease from '../../../store/lease.ts';

type LeaseCtx = Pick<Ctx, 'redis' | 'keys'>;

/**
 * Issue 16: the deployment's one Feishu long-connection lease (owner of `keys.feishuWsLease`).
 * A lease (`src/store/lease.ts`): whoever holds it is the only process with a connection, and it
 * expires by itself, so a killed holder needs no clean-up.
 */
export async function takeLease(ctx: LeaseCtx, holder: string, ttlMs: number): Promise<boolean> {
  return lease.takeLease(ctx.redis, ctx.keys.feishuWsLease(), holder, ttlMs);
}

/** True when `holder` still held the lease and it now runs `ttlMs` from this call. */
export async function renewLease(ctx: LeaseCtx, holder: string, ttlMs: number): Promise<boolean> {
  return lease.renewLease(ctx.redis, ctx.keys.feishuWsLease(), holder, ttlMs);
}

/** Gives the lease up at once (shutdown), so another process takes over without waiting for expiry. */
export async function releaseLease(ctx: LeaseCtx, holder: string): Promise<void> {
  await lease.releaseLease(ctx.redis, ctx.keys.feishuWsLease(), holder);
}
