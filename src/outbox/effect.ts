import { z } from 'zod';

/**
 * Every outgoing effect the product can have. Each travels through the outbox as a BullMQ job
 * keyed by `key` (its idempotency key), so a retry, a redelivered webhook or a resumed turn never
 * sends it twice.
 */
export const EffectSchema = z.discriminatedUnion('op', [
  // Feishu
  z.object({ op: z.literal('feishu.react'), messageId: z.string(), emoji: z.string() }),
  z.object({
    op: z.literal('feishu.reply'),
    messageId: z.string(),
    text: z.string(),
    /** Reply inside the message's thread (topic) rather than as a quoted reply. */
    inThread: z.boolean().optional(),
    /** The chat the message is in: replies count against its 5 messages/s like sends do. */
    chatId: z.string().optional(),
  }),
  z.object({ op: z.literal('feishu.send'), chatId: z.string(), text: z.string() }),
  /** An interactive card (v2 JSON) sent in reply to a message. */
  z.object({
    op: z.literal('feishu.card.reply'),
    messageId: z.string(),
    card: z.record(z.string(), z.unknown()),
  }),
  z.object({
    op: z.literal('feishu.card.patch'),
    messageId: z.string(),
    card: z.record(z.string(), z.unknown()),
  }),
  // GitHub
  z.object({
    op: z.literal('github.react'),
    repo: z.string(),
    /** What the reaction goes on. */
    target: z.enum(['issue', 'issue_comment', 'review_comment']),
    /** Issue/PR number for `issue`, comment id otherwise. */
    id: z.number().int(),
    content: z.enum(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes']),
  }),
  z.object({ op: z.literal('github.comment'), repo: z.string(), number: z.number().int(), body: z.string() }),
  z.object({
    op: z.literal('github.comment.edit'),
    repo: z.string(),
    commentId: z.number().int(),
    body: z.string(),
  }),
  z.object({
    op: z.literal('github.review_reply'),
    repo: z.string(),
    number: z.number().int(),
    commentId: z.number().int(),
    body: z.string(),
  }),
  z.object({
    op: z.literal('github.resolve_thread'),
    threadId: z.string(),
    /** The PR's repository: App mode needs it to pick the installation token. */
    repo: z.string().optional(),
  }),
  // The panel's local chat
  z.object({ op: z.literal('local.reply'), chatId: z.string(), messageId: z.string(), text: z.string() }),
  z.object({ op: z.literal('local.react'), messageId: z.string(), emoji: z.string() }),
  /** A ticket's status message in a local chat: posted once as `statusId`, then replaced in place. */
  z.object({
    op: z.literal('local.status'),
    chatId: z.string(),
    messageId: z.string(),
    statusId: z.string(),
    text: z.string(),
  }),
]);
export type Effect = z.infer<typeof EffectSchema>;
export type EffectOp = Effect['op'];
export type EffectOf<O extends EffectOp> = Extract<Effect, { op: O }>;

/** An outbox job: the effect, its idempotency key, and the ticket it belongs to (for pauses). */
export const OutboxJobSchema = z.object({
  key: z.string().min(1),
  effect: EffectSchema,
  ticketId: z.string().optional(),
  /** Pause confirmations and the "seen" reaction are sent even while the ticket is paused. */
  exemptFromPause: z.boolean().optional(),
  queuedAt: z.number().int(),
});
export type OutboxJob = z.infer<typeof OutboxJobSchema>;

/** What a delivery produced: the created message/comment id, when there is one. */
export interface DeliveryResult {
  id?: string;
}

/** A channel's side of the outbox: it performs one effect of its own channel. */
export interface Sender {
  /** `key` doubles as the platform's idempotency token where there is one (Feishu `uuid`). */
  deliver(effect: Effect, key: string, attempt: number): Promise<DeliveryResult>;
}
