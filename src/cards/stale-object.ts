import { DEDUPE_TTL_SECONDS } from './claim-batch.ts';

/**
 * Issue 31: whether an event is about an object (a comment, a review, a Feishu message) last
 * changed longer ago than the dedupe window. Its delivery id and replay key are forgotten by then,
 * so a captured body sent again would count as new: such a card is refused as a replay (answered
 * as a duplicate, nothing stored). Senders redeliver well within the window (`DEDUPE_TTL_SECONDS`).
 */
export function isStaleObject(objectAt: number | undefined, now: number): boolean {
  return objectAt !== undefined && Number.isFinite(objectAt) && now - objectAt > DEDUPE_TTL_SECONDS * 1000;
}
