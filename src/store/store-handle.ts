import type { Ctx } from '../context.ts';

/**
 * The connection and its key names, as handed to owner modules (issue 20). Code outside the
 * owners carries a handle to pass on — a runtime's prompt deps, a turn's options — and never
 * calls Redis through it.
 */
export type StoreHandle = Pick<Ctx, 'redis' | 'keys'>;

/** Just the handle out of a larger context, so nothing else of it is carried along. */
export const storeHandle = (ctx: StoreHandle): StoreHandle => ({ redis: ctx.redis, keys: ctx.keys });
