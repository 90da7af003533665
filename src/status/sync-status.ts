import { createHash } from 'node:crypto';
import type { Ctx } from '../context.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';
import { sentRecord } from '../outbox/sent-records.ts';
import { getTicket } from '../tickets/ticket-store.ts';
import { getStatus } from './get-status.ts';
import { markStatusDirty } from './schedule-status.ts';
import { deliveryState, nextStatusSeq, readStatusMessage, writeStatusMessage } from './status-message.ts';
import { editEffect, postEffect, renderFor, type StatusTarget, statusTarget } from './status-target.ts';
import { clearStatusDirty, lockStatusSync, unlockStatusSync } from './sync-flags.ts';

/** At most one edit per this long per message, measured from the previous delivery (Feishu: 5/s). */
export const MIN_EDIT_GAP_MS = 250;
/** Feishu edits a message only within 14 days of sending it; stay a little inside. */
export const FEISHU_EDIT_WINDOW_MS = 14 * 24 * 3600_000 - 3600_000;
/** How soon a sync looks again while the previous edit is still on its way. */
const RECHECK_MS = 200;

export type SyncResult = 'posted' | 'edited' | 'unchanged' | 'waiting' | 'fallback' | 'gave_up' | 'nothing';

const hashOf = (s: string): string => createHash('sha1').update(s).digest('hex');

/**
 * Brings a ticket's one status message up to date (issue 9): posts it the first time, afterwards
 * only edits it. Edits go one at a time: the next is queued only once the previous one was
 * delivered and `MIN_EDIT_GAP_MS` passed, and it renders the state as it is then — so a burst
 * becomes a handful of edits, a slowed delivery (Feishu 230020) only delays them, and the last
 * state always wins. A post or edit that fails for good is replaced by one new message, once.
 */
export async function syncStatus(ctx: Ctx, ticketId: string): Promise<SyncResult> {
  if (!(await lockStatusSync(ctx, ticketId))) {
    // Another sync of this ticket runs: look again after it (this job's flag is ours to clear).
    await clearStatusDirty(ctx, ticketId);
    return again(ctx, ticketId, RECHECK_MS);
  }
  try {
    // Cleared before reading anything: a change from now on queues the next sync.
    await clearStatusDirty(ctx, ticketId);
    return await syncLocked(ctx, ticketId);
  } finally {
    await unlockStatusSync(ctx, ticketId);
  }
}

async function syncLocked(ctx: Ctx, ticketId: string): Promise<SyncResult> {
  const msg = await readStatusMessage(ctx, ticketId);
  if (msg.gaveUp) return 'gave_up';
  const ticket = await getTicket(ctx, ticketId);
  const status = await getStatus(ctx, ticketId);
  const target = ticket && statusTarget(ticket);
  if (!status || !target) return 'nothing';
  const content = renderFor(target, status);
  if (!msg.key) return post(ctx, ticketId, target, content, `status:${ticketId}:post`);
  const pending = msg.pending ? await deliveryState(ctx, msg.pending) : 'sent';
  if (pending === 'pending') return again(ctx, ticketId, RECHECK_MS);
  if (pending === 'failed') return fallback(ctx, ticketId, msg.fallback === true, target, content);
  const posted = await sentRecord(ctx, msg.key);
  if (!posted?.id) return fallback(ctx, ticketId, msg.fallback === true, target, content);
  const hash = hashOf(content);
  if (hash === msg.hash) return 'unchanged';
  const last = msg.pending ? await sentRecord(ctx, msg.pending) : posted;
  const wait = (last?.at ?? 0) + MIN_EDIT_GAP_MS - ctx.now();
  if (wait > 0) return again(ctx, ticketId, wait);
  if (target.channel === 'feishu' && ctx.now() - (msg.postedAt ?? 0) > FEISHU_EDIT_WINDOW_MS)
    return fallback(ctx, ticketId, msg.fallback === true, target, content);
  const seq = await nextStatusSeq(ctx, ticketId, 'edits');
  const key = `status:${ticketId}:edit:${seq}`;
  const effect = editEffect(target, posted.id, content, msg.key);
  await enqueueEffect(ctx, { key, effect, ticketId, exemptFromPause: true });
  await writeStatusMessage(ctx, ticketId, { pending: key, hash });
  // Look again once it should be out: a failure for good is noticed even if nothing changes.
  await markStatusDirty(ctx, ticketId, MIN_EDIT_GAP_MS);
  return 'edited';
}

async function again(ctx: Ctx, ticketId: string, delayMs: number): Promise<SyncResult> {
  await markStatusDirty(ctx, ticketId, delayMs);
  return 'waiting';
}

/** Queues the post first, then records it: a crash in between re-queues the same key (a no-op). */
async function post(
  ctx: Ctx,
  ticketId: string,
  target: StatusTarget,
  content: string,
  key: string,
): Promise<SyncResult> {
  // The status shows the pause, so it goes out while paused (R-D2 holds only the ticket's work).
  await enqueueEffect(ctx, { key, effect: postEffect(target, content), ticketId, exemptFromPause: true });
  await writeStatusMessage(ctx, ticketId, { key, pending: key, postedAt: ctx.now(), hash: hashOf(content) });
  await markStatusDirty(ctx, ticketId, MIN_EDIT_GAP_MS);
  return 'posted';
}

async function fallback(
  ctx: Ctx,
  ticketId: string,
  used: boolean,
  target: StatusTarget,
  content: string,
): Promise<SyncResult> {
  if (used) {
    await writeStatusMessage(ctx, ticketId, { gaveUp: true });
    ctx.log.warn({ ticketId }, 'status message: the fallback failed too; no more status updates');
    return 'gave_up';
  }
  ctx.log.warn({ ticketId }, 'status message: editing failed for good; posting one new status message');
  await writeStatusMessage(ctx, ticketId, { fallback: true });
  await post(ctx, ticketId, target, content, `status:${ticketId}:fallback`);
  return 'fallback';
}
