import { readdir, rm, stat } from 'node:fs/promises';
import type { Ctx } from '../../context.ts';
import { forgetCheckoutUse, ifCheckoutIdle, lastCheckoutUse } from './checkout-use.ts';
import { type CheckoutVerdict, checkoutVerdict } from './checkout-verdict.ts';
import { dropMirrorRefs, ticketsWithMirrorRefs } from './mirror-refs.ts';
import { releaseCheckout } from './release-checkout.ts';
import { workspacePaths } from './workspace.ts';

export interface CheckoutSweep {
  /** Checkouts removed from this machine's disk, with why. */
  removed: { ticketId: string; why: Exclude<CheckoutVerdict, 'needed'> }[];
  /** Tickets whose private refs left this machine's mirrors. */
  refs: string[];
}

const CHECKOUT = /^T\d+$/;
/** A half-made checkout a crashed worker left beside its target (`make-checkout.ts`). */
const LEFTOVER = /^(T\d+)\.clone-[0-9a-f]{8}$/;

/** The last time this machine touched a checkout: a turn here let it go, or it was made or moved. */
async function lastTouched(path: string): Promise<number> {
  const st = await stat(path).catch(() => undefined);
  return Math.max(lastCheckoutUse(path) ?? 0, st?.mtimeMs ?? 0, st?.ctimeMs ?? 0);
}

/**
 * The workspace sweep of this machine's disk (issue 19 "checkouts that no turn needs any more are
 * removed from every worker's disk"): every worker runs it over its own `WORKSPACE_DIR`. A
 * checkout goes — with its command home and step marker — when its ticket is gone, closed, or
 * this copy is stale (`checkoutVerdict`), and nothing touched it here for
 * `WORKSPACE_SWEEP_GRACE_MS`. One a turn in this process holds is skipped, and a turn starting
 * while the sweep decides waits for it (`checkout-use.ts`), then makes the checkout again. Closed
 * and gone tickets also lose their private refs in the mirrors, and half-made checkouts go.
 */
export async function sweepCheckouts(ctx: Ctx): Promise<CheckoutSweep> {
  const { root } = workspacePaths(ctx, '');
  const since = ctx.now() - ctx.config.WORKSPACE_SWEEP_GRACE_MS;
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const removed: CheckoutSweep['removed'] = [];
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const left = LEFTOVER.exec(e.name)?.[1];
    const ticketId = CHECKOUT.test(e.name) ? e.name : left;
    if (!ticketId) continue;
    const { dir } = workspacePaths(ctx, ticketId);
    const path = `${root}/${e.name}`;
    const got = await ifCheckoutIdle(dir, async () => {
      if ((await lastTouched(path)) > since) return 'needed';
      if (left) return rm(path, { recursive: true, force: true }).then(() => 'needed' as const);
      const why = await checkoutVerdict(ctx, ticketId);
      if (why === 'needed') return why;
      await releaseCheckout(ctx, ticketId);
      forgetCheckoutUse(dir);
      return why;
    });
    if (got !== 'in_use' && got !== 'needed') removed.push({ ticketId, why: got });
  }
  const refs = await sweepMirrorRefs(ctx);
  if (removed.length || refs.length) ctx.log.info({ removed, refs }, 'workspace sweep');
  return { removed, refs };
}

/** Private mirror refs of tickets that are closed or gone, unless a turn here holds the ticket. */
async function sweepMirrorRefs(ctx: Ctx): Promise<string[]> {
  const dropped: string[] = [];
  for (const [ticketId, refs] of await ticketsWithMirrorRefs(ctx)) {
    const got = await ifCheckoutIdle(workspacePaths(ctx, ticketId).dir, async () => {
      const why = await checkoutVerdict(ctx, ticketId);
      if (why !== 'closed' && why !== 'gone') return false;
      await dropMirrorRefs(ctx, refs);
      return true;
    });
    if (got === true) dropped.push(ticketId);
  }
  return dropped;
}
