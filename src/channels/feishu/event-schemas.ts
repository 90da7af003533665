import { z } from 'zod';

/**
 * The parts of Feishu's v2 events this product reads, as the SDK's dispatcher hands them over:
 * `header` and `event` fields flattened into one object. Empty id strings count as absent.
 */
const id = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined));

export const UserIdsSchema = z.object({ open_id: id, user_id: id, union_id: id });
export type UserIds = z.infer<typeof UserIdsSchema>;

export const MentionSchema = z.object({
  /** The placeholder in the text, `@_user_1`. */
  key: z.string(),
  id: UserIdsSchema.default({ open_id: undefined, user_id: undefined, union_id: undefined }),
  name: z.string().default(''),
  /** `bot` or `user` on newer events. */
  mentioned_type: z.string().optional(),
});
export type Mention = z.infer<typeof MentionSchema>;

/** Mentions read from one message; more are dropped before validation (and never rendered). */
export const MAX_MENTIONS = 200;

/** `im.message.receive_v1` */
export const MessageEventSchema = z.object({
  event_id: z.string().min(1),
  sender: z.object({
    sender_id: UserIdsSchema.default({ open_id: undefined, user_id: undefined, union_id: undefined }),
    /** `user` or `app`. */
    sender_type: z.string(),
  }),
  message: z.object({
    message_id: z.string().min(1),
    root_id: id,
    parent_id: id,
    thread_id: id,
    chat_id: z.string().min(1),
    /** `p2p` or `group` (topic groups are groups with threads). */
    chat_type: z.string(),
    message_type: z.string(),
    content: z.string(),
    // Issue 14: a 1 MiB body could list ~10,000 mentions; only the first MAX_MENTIONS are read.
    mentions: z.preprocess(
      (v) => (Array.isArray(v) ? v.slice(0, MAX_MENTIONS) : v),
      z.array(MentionSchema).default([]),
    ),
  }),
});
export type MessageEvent = z.infer<typeof MessageEventSchema>;

/** `card.action.trigger`: a button (or other control) pressed on one of the bot's cards. */
export const CardActionEventSchema = z.object({
  event_id: z.string().min(1),
  operator: UserIdsSchema,
  action: z.object({
    tag: z.string().default('button'),
    value: z.unknown().optional(),
    option: z.string().optional(),
    input_value: z.string().optional(),
    form_value: z.record(z.string(), z.unknown()).optional(),
  }),
  context: z.object({ open_message_id: z.string().min(1), open_chat_id: z.string().min(1) }),
});
export type CardActionEvent = z.infer<typeof CardActionEventSchema>;
