import type { Keys } from '../store/keys.ts';

/** The executor session of a ticket: one per ticket, its transcript under this id. */
export const executorSessionId = (ticketId: string): string => `exec-${ticketId}`;

/**
 * Every key that belongs to one ticket alone: its record, lists, status, pause, outbox log and
 * its executor session's transcript (issue 14 "lifecycle"). `ticketRefs` is apart: the sweep
 * needs it to take the ticket out of the shared reference index.
 */
export function ticketOwnKeys(keys: Keys, id: string): string[] {
  const session = executorSessionId(id);
  return [
    keys.ticket(id),
    keys.ticketRefTimes(id),
    keys.ticketCards(id),
    keys.ticketDataCards(id),
    keys.ticketSessions(id),
    keys.ticketInbox(id),
    keys.ticketDataCards(id),
    keys.ticketNotes(id),
    keys.ticketAcked(id),
    keys.ticketUnrelated(id),
    keys.ticketReports(id),
    keys.ticketWorkspace(id),
    keys.ticketWorkspaceStep(id),
    keys.ticketVerifications(id),
    keys.ticketScreenshots(id),
    keys.ticketScreenshotImages(id),
    keys.ticketPr(id),
    keys.ticketCommits(id),
    keys.ticketPushes(id),
    keys.ticketDeliveryLooks(id),
    keys.ticketPlan(id),
    keys.ticketBotNoted(id),
    keys.ticketStatus(id),
    keys.statusMessage(id),
    keys.outboxByTicket(id),
    keys.outboxHeld(id),
    keys.pause(id),
    keys.turnSeq(id),
    keys.turnEpoch(id),
    keys.pauseLog(id),
    keys.ticketCost(id),
    keys.session(session),
    keys.transcript(session),
    keys.transcriptMeta(session),
    keys.sessionRevisions(session),
    keys.sessionSteps(session),
    keys.sessionFileReads(session),
  ];
}

/**
 * A ticket's short-lived flags and locks: they carry their own short TTLs, which a retention TTL
 * must not lengthen; a purge deletes them with the rest.
 */
export function ticketTransientKeys(keys: Keys, id: string): string[] {
  return [keys.turnLock(id), keys.statusScheduled(id), keys.statusLock(id), keys.breakerTrip(id)];
}

/** The keys of one card besides its index entry: record, full text and routing bookkeeping. */
export function cardKeys(keys: Keys, cardId: string): string[] {
  return [
    keys.card(cardId),
    keys.cardFull(cardId),
    keys.cardRouted(cardId),
    keys.cardTaken(cardId),
    keys.cardOwners(cardId),
    keys.cardHandbacks(cardId),
  ];
}
