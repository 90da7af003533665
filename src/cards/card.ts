import { z } from 'zod';

/**
 * An explicit reference an event carries (R-A3, R-B2). Only these ever attach a card to a ticket;
 * topic words never do.
 */
export const RefSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pr'), repo: z.string(), number: z.number().int().positive() }),
  z.object({ type: z.literal('issue'), repo: z.string(), number: z.number().int().positive() }),
  /** A chat or comment message id on its source (Feishu `om_…`, GitHub `comment:123`). */
  z.object({ type: z.literal('message'), id: z.string().min(1) }),
  /** A Feishu thread or reply root: everything in it is one conversation thread. */
  z.object({ type: z.literal('thread'), id: z.string().min(1) }),
  z.object({ type: z.literal('commit'), sha: z.string().regex(/^[0-9a-f]{7,40}$/) }),
  z.object({ type: z.literal('branch'), repo: z.string(), name: z.string().min(1) }),
  z.object({ type: z.literal('url'), url: z.string().min(1) }),
  /** A GitHub review thread (node id), so review replies stay in their thread. */
  z.object({ type: z.literal('review_thread'), id: z.string().min(1) }),
]);
export type Ref = z.infer<typeof RefSchema>;

export const CardSource = z.enum(['feishu', 'github', 'local']);
export type CardSource = z.infer<typeof CardSource>;

export const CardKind = z.enum([
  'message', // a chat message (Feishu, local)
  'card_action', // a Feishu card button
  'issue_comment',
  'review_comment',
  'review',
  'pull_request',
  'issue',
  'check', // check_suite / check_run: automatic feedback
]);
export type CardKind = z.infer<typeof CardKind>;

export const AuthorSchema = z.object({
  /** Feishu open_id, GitHub login, or a local name. */
  id: z.string().min(1),
  name: z.string().optional(),
  /** `self` is this bot; `bot` any other automation. Bots never start work (R-A2). */
  type: z.enum(['person', 'bot', 'self']),
  /** GitHub `author_association` or repository permission, when known (R-A5). */
  role: z.string().optional(),
  /** GitHub repository permission (`admin`…`none`, `unknown`), looked up by the router (R-A5). */
  permission: z.string().optional(),
  /** GitHub's numeric user id, stable across login renames (`github:12345` allow-list entries). */
  numericId: z.number().int().optional(),
});
export type Author = z.infer<typeof AuthorSchema>;

/** The message a card came from, so replies and reactions go back to it. */
export const OriginSchema = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('feishu'),
    chatId: z.string(),
    chatType: z.enum(['p2p', 'group']),
    messageId: z.string(),
    /** Reply root and thread: where a threaded answer goes. */
    rootId: z.string().optional(),
    threadId: z.string().optional(),
  }),
  z.object({
    source: z.literal('github'),
    repo: z.string(),
    /** Issue or PR number the event belongs to, when it has one. */
    number: z.number().int().positive().optional(),
    isPullRequest: z.boolean(),
    /** The comment (issue or review) id, for reactions and review-thread replies. */
    commentId: z.number().int().optional(),
    commentType: z.enum(['issue', 'review', 'review_body']).optional(),
    reviewThreadId: z.string().optional(),
  }),
  z.object({
    source: z.literal('local'),
    chatId: z.string(),
    messageId: z.string(),
    rootId: z.string().optional(),
  }),
]);
export type Origin = z.infer<typeof OriginSchema>;

export const TEXT_CAP = 4000;
/** How much of an issue's or PR's body a comment's card carries (R-H6). */
export const CONTEXT_OPENING = 800;

/** One normalized event (R-A3). Every webhook becomes exactly one of these. */
export const TriggerCardSchema = z.object({
  id: z.string().regex(/^[\w-]+$/),
  source: CardSource,
  kind: CardKind,
  /** Delivery or event id from the sender: the dedupe key. */
  eventId: z.string().min(1),
  /** The event's own action or type detail (`created`, `opened`, `completed`, `button:pause`, …). */
  action: z.string().optional(),
  receivedAt: z.number().int(),
  author: AuthorSchema,
  origin: OriginSchema,
  /** A conversation id that groups related messages (chat id, `owner/name#12`). */
  conversation: z.string().min(1),
  /** The message this one replies to, if any. */
  replyTo: z.string().optional(),
  /** An explicit request to the bot: a mention, a direct message, an assignment (R-B8). */
  request: z.boolean(),
  refs: z.array(RefSchema),
  title: z.string().optional(),
  text: z.string().max(TEXT_CAP + 200),
  /** Present only when `text` was cut: where the whole text is kept (R-A3). */
  truncated: z.object({ resource: z.string(), totalChars: z.number().int() }).optional(),
  /**
   * Where the card sits, when it is cheap to say (R-H6): the message it replies to (its author and
   * first line) and the opening of the issue or PR it comments on. Untrusted data, like `text`.
   */
  context: z
    .object({
      parent: z.object({ id: z.string(), author: z.string(), firstLine: z.string().max(400) }).optional(),
      item: z
        .object({ author: z.string(), opening: z.string().max(CONTEXT_OPENING + 200), cut: z.boolean() })
        .optional(),
    })
    .optional(),
  /** Extra facts of automatic feedback (check conclusion, PR merged, …) for models and rules. */
  facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});
export type TriggerCard = z.infer<typeof TriggerCardSchema>;

/** What a channel's parser hands to ingest: a card before ids, truncation and time are set. */
export type CardDraft = Omit<TriggerCard, 'id' | 'receivedAt' | 'truncated'>;
