/**
 * The one place that knows Redis key names. Every key starts with the deployment's prefix, so
 * tests run side by side on one Redis with a fresh prefix each, and a Redis Cluster deployment
 * can use a hash-tagged prefix such as `{sy}`.
 */
export function createKeys(prefix: string) {
  const k = (...parts: (string | number)[]) => [prefix, ...parts].join(':');
  return {
    prefix,
    /** BullMQ's own prefix for every queue of this deployment. */
    queuePrefix: k('q'),

    // ingest and cards
    /** SET NX marker for one delivery (Feishu event id, GitHub delivery id). */
    seen: (source: string, eventId: string) => k('seen', source, eventId),
    card: (cardId: string) => k('card', cardId),
    /** The whole text of a card whose text was truncated (its resource pointer). */
    cardFull: (cardId: string) => k('card', cardId, 'full'),
    /** Sorted set of card ids by arrival time. */
    cardsByTime: () => k('cards'),

    // outbox
    /** Delivery record of an outgoing effect, by idempotency key: set once it was sent. */
    outboxSent: (key: string) => k('outbox', 'sent', key),
    /** List of outbox keys delivered for a ticket, newest last. */
    outboxByTicket: (ticketId: string) => k('outbox', 'ticket', ticketId),
    /** Per-conversation send-rate window (Feishu: 5 messages/s per chat). */
    rateWindow: (scope: string) => k('rate', scope),

    // tickets and routing
    ticket: (id: string) => k('ticket', id),
    ticketSeq: () => k('ticket', 'seq'),
    tickets: () => k('tickets'),
    ticketCards: (id: string) => k('ticket', id, 'cards'),
    ticketSessions: (id: string) => k('ticket', id, 'sessions'),
    /** Reference index: `pr:owner/name#12`, `msg:om_x`, `thread:…`, `branch:…` → set of ticket ids. */
    refIndex: (ref: string) => k('ref', ref),
    pause: (ticketId: string) => k('pause', ticketId),
    candidates: () => k('candidates'),
    cardOwners: (cardId: string) => k('card', cardId, 'owners'),
    cardHandbacks: (cardId: string) => k('card', cardId, 'handbacks'),
    mainLock: () => k('main', 'lock'),

    // sessions
    session: (id: string) => k('session', id),
    transcript: (sessionId: string) => k('session', sessionId, 'transcript'),
    /** Hash beside the transcript: step counter, the current turn's state, `result:…` per tool call. */
    transcriptMeta: (sessionId: string) => k('session', sessionId, 'transcript', 'meta'),
    sessionRevisions: (sessionId: string) => k('session', sessionId, 'revisions'),
    budget: (ticketId: string, window: string) => k('budget', ticketId, window),

    // prompt settings and policy (R-F1)
    promptsHead: () => k('prompts', 'head'),
    promptsVersion: (rev: number) => k('prompts', 'v', rev),
    promptsVersions: () => k('prompts', 'versions'),
    policyHead: () => k('policy', 'head'),
    policyVersion: (rev: number) => k('policy', 'v', rev),
    policyVersions: () => k('policy', 'versions'),

    // chat settings and the panel's local chat
    localChat: (chatId: string) => k('local', chatId),
    chatRepos: () => k('settings', 'chat-repos'),
  };
}

export type Keys = ReturnType<typeof createKeys>;
