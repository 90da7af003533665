import { z } from 'zod';
import type { ChatMessage, ThinkingBlock, ToolCall, ToolImage } from './chat-message.ts';

/*
 * Issue 20: the transcript's stored shapes, read through zod. Objects are loose: a stored message
 * goes back to the model as it was stored (R-H1 — thinking signatures cover their text), so a
 * field this release does not know is kept, not stripped. The `satisfies` keeps each schema and
 * its type one shape.
 */

export const ToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
}) satisfies z.ZodType<ToolCall, unknown>;

const ThinkingBlockSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() }),
]) satisfies z.ZodType<ThinkingBlock, unknown>;

export const ToolImageSchema = z.object({
  media_type: z.literal('image/png'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  data: z.string(),
}) satisfies z.ZodType<ToolImage, unknown>;

export const ChatMessageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('user'), content: z.string() }),
  z.looseObject({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    tool_calls: z.array(ToolCallSchema).exactOptional(),
    reasoning_content: z.string().exactOptional(),
    thinking_blocks: z.array(ThinkingBlockSchema).exactOptional(),
  }),
  z.looseObject({
    role: z.literal('tool'),
    tool_call_id: z.string(),
    content: z.string(),
    image: ToolImageSchema.exactOptional(),
    image_elided: z.object({ width: z.number(), height: z.number() }).exactOptional(),
  }),
]) satisfies z.ZodType<ChatMessage, unknown>;
