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

    // schema (issue 20)
    /** The stored data's schema version: the last migration step applied (`src/store/migrations/`). */
    schemaVersion: () => k('schema', 'version'),
    /** Held by the one process running migrations at start-up. */
    schemaLock: () => k('schema', 'lock'),

    // ingest and cards
    /** SET NX marker for one delivery (Feishu event id, GitHub delivery id). */
    seen: (source: string, eventId: string) => k('seen', source, eventId),
    /** What a delivery's body is about (object, action, update time), hashed: catches replays under new ids. */
    seenObject: (source: string, key: string) => k('seen-object', source, key),
    card: (cardId: string) => k('card', cardId),
    /**
     * Issue 31: the card holding the stored full text of one edited object (a GitHub comment, an
     * issue's or PR's body): a newer card of it deletes the older one's full text.
     */
    cardObjectText: (source: string, object: string) => k('card-object', source, object),
    /** Issue 31: cards ingested in the current minute by one author or place (a counter with a TTL). */
    ingestRate: (scope: string) => k('ingest-rate', scope),
    /** Issue 45: marks that one outsider got their polite refusal in one place today (a TTL). */
    refusedIn: (place: string, author: string) => k('refused', place, author),
    /** Issue 45: polite refusals posted in one place today (a counter with a TTL). */
    refusalBudget: (place: string) => k('refusal-budget', place),
    /** Issue 49 item 3: an alert sent for this cause (once per cause), and alerts sent this minute. */
    alertSent: (cause: string) => k('alert', cause),
    alertRate: (minute: string) => k('alert-rate', minute),
    /** The whole text of a card whose text was truncated (its resource pointer). */
    cardFull: (cardId: string) => k('card', cardId, 'full'),
    /** Sorted set of card ids by arrival time. */
    cardsByTime: () => k('cards'),
    /**
     * Issue 18: sorted set of stored cards whose routing job and "seen" reaction are not yet known
     * to be queued, scored by when a worker's intake pump may take them (a taken card's score moves
     * on by a lease); the ingest script adds, `src/cards/intake.ts` removes.
     */
    cardsIntake: () => k('cards', 'intake'),
    /** A one-element list the ingest script pushes to wake the intake pumps (BLPOP). */
    cardsIntakeSignal: () => k('cards', 'intake', 'signal'),
    /** Hash: an intake card's trace context (issue 17), so its jobs continue the webhook's trace. */
    cardsIntakeTrace: () => k('cards', 'intake', 'trace'),
    /**
     * Issue 16: the Feishu long-connection lease — the id of the one process holding the
     * deployment's connection, expiring unless renewed (`src/channels/feishu/ws/lease.ts`).
     */
    feishuWsLease: () => k('feishu', 'ws-lease'),
    /**
     * Issue 29: the panel's A/B eval run — a lease (the id of the web process whose child runs it,
     * expiring unless renewed: one run at a time across web processes) and the last run's state
     * (JSON), both owned by `src/eval/ab-run-store.ts`.
     */
    evalAbLease: () => k('eval', 'ab', 'lease'),
    evalAbRun: () => k('eval', 'ab', 'run'),
    /**
     * Issue 33 item 2: the events inbox — a sorted set of entry ids by first arrival (ms) and a
     * hash of entry id → JSON (`src/cards/event-log.ts`), capped and kept 7 days.
     */
    eventLog: () => k('event-log'),
    eventLogEntries: () => k('event-log', 'entries'),

    // outbox
    /** Delivery record of an outgoing effect, by idempotency key: set once it was sent. */
    outboxSent: (key: string) => k('outbox', 'sent', key),
    /** List of outbox keys delivered for a ticket, newest last. */
    outboxByTicket: (ticketId: string) => k('outbox', 'ticket', ticketId),
    /** Set of outbox job ids a paused ticket holds back: released (promoted) by its resume. */
    outboxHeld: (ticketId: string) => k('outbox', 'held', ticketId),
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
    ticketRefs: (id: string) => k('ticket', id, 'refs'),
    /** When the ticket last took each of its commits and branches (issue 30: only recent ones attach). */
    ticketRefTimes: (id: string) => k('ticket', id, 'reftimes'),
    /** Cards attached to a ticket that its executor has not seen yet. */
    ticketInbox: (id: string) => k('ticket', id, 'inbox'),
    /** Cards from outside the ticket's repository or chat, attached as data only: card id → label (R-H5). */
    ticketDataCards: (id: string) => k('ticket', id, 'data-cards'),
    /** The counter that makes each queued turn's job id unique. */
    turnSeq: (id: string) => k('ticket', id, 'turn-scheduled:seq'),
    /** Held by the one running executor turn of a ticket. */
    turnLock: (id: string) => k('ticket', id, 'turn-lock'),
    /** The fencing epoch of a ticket's turns: raised by every take of its turn lock (issue 46). */
    turnEpoch: (id: string) => k('ticket', id, 'turn-epoch'),
    /** The cards one executor turn works on, kept so a resumed turn sees the same batch. */
    turnBatch: (turnId: string) => k('turn', turnId, 'batch'),
    /** Routing and cross-ticket notes for a ticket's executor, not yet delivered to it (R-B5). */
    ticketNotes: (id: string) => k('ticket', id, 'notes'),
    /** The notes one executor turn took, kept so a resumed turn sees the same ones. */
    turnNotes: (turnId: string) => k('turn', turnId, 'batch', 'notes'),
    /**
     * Set once a tool that changed the work succeeded in the turn (issue 15 "hand-back after
     * silent handling"), so a turn resumed by another worker still knows its follow-ups were acted on.
     */
    turnActed: (turnId: string) => k('turn', turnId, 'batch', 'acted'),
    /** Cards the ticket's executor acknowledged (R-C2: once each). */
    ticketAcked: (id: string) => k('ticket', id, 'acked'),
    /** Thread keys the executor declared unrelated (R-C4): it no longer answers there. */
    ticketUnrelated: (id: string) => k('ticket', id, 'unrelated'),
    ticketReports: (id: string) => k('ticket', id, 'reports'),
    /** The ticket's checkout: JSON `{ repo, dir, branch, base }` (issue 4 "Workspace"). */
    ticketWorkspace: (id: string) => k('ticket', id, 'workspace'),
    /**
     * The checkout's last recorded step (issue 19): hash `id`, `step`, `head`, `headRef`, `at` and
     * `bundle` (a git bundle of its work-in-progress commit), so any worker can restore it.
     */
    ticketWorkspaceStep: (id: string) => k('ticket', id, 'workspace', 'step'),
    /** Verifications run for the ticket: JSON `{ command, exitCode, sha, at }`, newest last (R-C6). */
    ticketVerifications: (id: string) => k('ticket', id, 'verifications'),
    /** Screenshots attached for the ticket: JSON `{ path, when, sha, at }`, newest last (R-C6). */
    ticketScreenshots: (id: string) => k('ticket', id, 'screenshots'),
    /** The pictures the `screenshot` tool took for a ticket: shot id → PNG bytes (issue 15). */
    ticketScreenshotImages: (id: string) => k('ticket', id, 'screenshot-images'),
    /** The ticket's own PR: JSON `{ repo, number, nodeId, url }` (R-C6). */
    ticketPr: (id: string) => k('ticket', id, 'pr'),
    /** Commits made by a tool call, by idempotency key, so a resumed call does not commit twice. */
    ticketCommits: (id: string) => k('ticket', id, 'commits'),
    /** Branch heads whose diff the executor was shown before delivery: hash sha → the call's key (issue 48). */
    ticketDeliveryLooks: (id: string) => k('ticket', id, 'delivery-looks'),
    /** The executor's plan as it last set it (update_plan): JSON `{ steps, at }` (issue 48). */
    ticketPlan: (id: string) => k('ticket', id, 'plan'),
    /** Commits the bot pushed to the ticket's branch: hash sha → when it first pushed it (ms, R-C7). */
    ticketPushes: (id: string) => k('ticket', id, 'pushes'),
    /** Rounds per automated reviewer on a PR: hash `login` → count; `turn:<id>:<login>` marks counted (R-C7). */
    prBotRounds: (repo: string, number: number) => k('pr', repo.toLowerCase(), number, 'bot-rounds'),
    /**
     * A ticket's cards that are noted, not worked, in every later turn too (an automated reviewer past
     * its three rounds on the PR, R-C7).
     */
    ticketBotNoted: (ticketId: string) => k('ticket', ticketId, 'bot-noted'),
    pause: (ticketId: string) => k('pause', ticketId),
    /** Every pause and resume of a ticket, oldest first: JSON `{ kind, at, by, via }` (issue 17 trajectory). */
    pauseLog: (ticketId: string) => k('ticket', ticketId, 'pause-log'),
    /** The live status of a ticket (issue 9): hash of JSON fields — step, question, answer, usage. */
    ticketStatus: (id: string) => k('ticket', id, 'status'),
    /** The ticket's one status message: hash — its outbox key, channel, posted time, pending edit. */
    statusMessage: (id: string) => k('ticket', id, 'status-msg'),
    /** Set while a status sync of the ticket is queued (the "dirty" flag); held by the running sync. */
    statusScheduled: (id: string) => k('ticket', id, 'status-scheduled'),
    statusLock: (id: string) => k('ticket', id, 'status-lock'),
    /** How a card was routed (set once). */
    cardRouted: (cardId: string) => k('card', cardId, 'routed'),
    /** Owners that took the card (acknowledged or answered it). */
    cardTaken: (cardId: string) => k('card', cardId, 'taken'),
    /** Follow-up notices for the main session (R-B6): read with its next turn, never a turn of their own. */
    mainNotices: () => k('main', 'notices'),
    mainBatch: (turnId: string) => k('main', 'batch', turnId),
    /** The follow-up notices a main turn took (with its batch, so a resumed turn sees the same). */
    mainNoticesBatch: (turnId: string) => k('main', 'batch', turnId, 'notices'),
    mainSeq: () => k('main', 'seq'),
    candidates: () => k('candidates'),
    cardOwners: (cardId: string) => k('card', cardId, 'owners'),
    cardHandbacks: (cardId: string) => k('card', cardId, 'handbacks'),
    mainLock: () => k('main', 'lock'),
    /** The fencing epoch of main-session turns: raised by every take of `mainLock` (issue 46). */
    mainEpoch: () => k('main', 'epoch'),
    /**
     * Held (by a card id, briefly) while routing opens a ticket by code in a conversation no ticket
     * owns (issue 18), so two requests arriving together cannot both find it free.
     */
    conversationClaim: (conversation: string) => k('conversation-claim', conversation),

    // sessions
    session: (id: string) => k('session', id),
    transcript: (sessionId: string) => k('session', sessionId, 'transcript'),
    /** Hash beside the transcript: step counter, the current turn's state, `result:…` per tool call. */
    transcriptMeta: (sessionId: string) => k('session', sessionId, 'transcript', 'meta'),
    sessionRevisions: (sessionId: string) => k('session', sessionId, 'revisions'),
    /** What the transcript does not hold, one JSON record a step: latency, usage, compactions, ends (issue 17). */
    sessionSteps: (sessionId: string) => k('session', sessionId, 'steps'),
    /** Hash: checkout path → hash of the content the session last read or wrote (issue 28: read before write). */
    sessionFileReads: (sessionId: string) => k('session', sessionId, 'file-reads'),
    budget: (ticketId: string, window: string) => k('budget', ticketId, window),

    // charts (issue 17)
    /** Hash of one UTC day's counters (`YYYY-MM-DD`): tokens, tickets, acknowledgements, turns; kept 90 days. */
    statsDay: (day: string) => k('stats', 'day', day),
    /** Hash: a ticket's running model cost (`nanos`, 10⁻⁹ USD; `src/stats/daily-stats.ts`, issue 33 item 5). */
    ticketCost: (ticketId: string) => k('ticket', ticketId, 'cost'),
    /** JSON: budgets set through the API over `TICKET_BUDGET_USD` / `DAILY_BUDGET_USD` (`src/stats/budgets.ts`). */
    budgets: () => k('budgets'),
    /** Sorted set: tickets paused because a budget was spent, by when (`src/stats/budgets.ts`). */
    budgetHolds: () => k('budgets', 'holds'),
    /** When the main session began waiting for the day's budget (ms; `src/stats/budgets.ts`). */
    budgetMainHold: () => k('budgets', 'main-hold'),
    /** List of queue-depth samples (JSON), one a minute, newest last, capped (`src/stats/queue-depth.ts`). */
    statsQueueDepth: () => k('stats', 'queue-depth'),
    /** Events received from one channel in one minute (a counter, kept two hours; the panel's Home, issue 33). */
    statsChannelEvents: (source: string, minute: number) => k('stats', 'events', source, minute),
    /** Hash: channel → when its last event was received (ms; `src/stats/channel-events.ts`). */
    statsChannelLast: () => k('stats', 'events', 'last'),
    /** JSON: the last model request's outcome and latency (`src/session/model-last.ts`, issue 33). */
    modelLast: () => k('model', 'last'),

    // prompt settings and policy (R-F1)
    promptsHead: () => k('prompts', 'head'),
    promptsVersion: (rev: number) => k('prompts', 'v', rev),
    promptsVersions: () => k('prompts', 'versions'),
    policyHead: () => k('policy', 'head'),
    policyVersion: (rev: number) => k('policy', 'v', rev),
    policyVersions: () => k('policy', 'versions'),

    // artifacts (issue 7)
    /** Registry revision: a reload increments it, and turns starting afterwards re-read (R-G5). */
    artifactsRevision: () => k('artifacts', 'revision'),
    /** The artifacts one executor turn resolved at its start: JSON, kept so a resumed turn keeps them. */
    turnArtifacts: (turnId: string) => k('turn', turnId, 'artifacts'),

    // chat settings and the panel's local chat
    localChat: (chatId: string) => k('local', chatId),
    /** The people's messages of a local chat (JSON, oldest first), beside the bot's in `localChat`. */
    localPeople: (chatId: string) => k('local-people', chatId),
    chatRepos: () => k('settings', 'chat-repos'),
    /** Hash: chat id (Feishu, local) or `owner/name` (GitHub) → the language fixed for it (issue 16). */
    chatLanguages: () => k('settings', 'chat-languages'),

    // panel sessions and sign-in (issue 14 "secrets hygiene")
    /** Hash: panel session id → its expiry (ms); a session is alive only while its field is here. */
    panelSessions: () => k('panel', 'sessions'),
    /** Failed sign-ins in the current window: `ip:<address>` or `all` (a counter with a TTL). */
    signInFailures: (scope: string) => k('panel', 'sign-in-failures', scope),

    // the GitHub App made from the panel (issue 16)
    /** A manifest flow's `state` → the panel session that started it (single use, an hour). */
    githubAppState: (state: string) => k('github-app', 'state', state),
    /** JSON: the App the manifest flow created, without secrets (`src/github-app/created-app.ts`). */
    githubAppCreated: () => k('github-app', 'created'),
    /** JSON: a Feishu person's name from the contact API, or why it could not be read (with a TTL). */
    feishuPersonName: (openId: string) => k('feishu', 'person-name', openId),

    // the Feishu app made by scanning a QR code in the panel (issue 33 item 6)
    /** JSON: a registration under way (its device code, host, interval), bound to the panel session. */
    feishuAppRegistration: (id: string) => k('feishu-app', 'registration', id),
    /** Held (PX) until that registration may be polled again: one poll an interval, across processes. */
    feishuAppPollGate: (id: string) => k('feishu-app', 'poll-gate', id),
    /** JSON: the app the scan created, without its secret (`src/feishu-app/created-app.ts`). */
    feishuAppCreated: () => k('feishu-app', 'created'),

    // safety (issue 8)
    /** A GitHub user's permission on a repository, cached briefly (R-A5). */
    permission: (repo: string, login: string) => k('perm', repo.toLowerCase(), login.toLowerCase()),
    /** Sliding-window counts of a ticket's messages or model requests (the circuit breaker). */
    breakerWindow: (ticketId: string, what: string) => k('breaker', ticketId, what),
    /** When the ticket's breaker last tripped: counting restarts after a person's resume. */
    breakerTrip: (ticketId: string) => k('breaker', ticketId, 'trip'),
    /** Sorted set: ticket id → time of its executor's last step (the watchdog). */
    ticketActivity: () => k('safety', 'activity'),
    /** Set once the bot asked GitHub to redeliver a delivery (by GUID). */
    redeliveryAsked: (guid: string) => k('redelivery', guid),
  };
}

export type Keys = ReturnType<typeof createKeys>;
