import { z } from 'zod';
import type { ToolImage } from './chat-message.ts';
import { ToolImageSchema } from './chat-message-schema.ts';

/**
 * What a tool hands back to the model (STYLE: unions over flags). A refusal is an ordinary
 * result, not an exception: CONTRACT "Model side" — a call that breaks a rule returns an error
 * result to the model saying why, and has no effect outside.
 */
export type ToolResult = { ok: true; content: string; image?: ToolImage } | { ok: false; error: string };

/** A result as the transcript stores it (`result:<call key>`), read through zod (issue 20). */
export const ToolResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), content: z.string(), image: ToolImageSchema.exactOptional() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]) satisfies z.ZodType<ToolResult, unknown>;

/** A successful result; `image` (issue 28) follows its text where the provider accepts images. */
export const toolOk = (content: string, image?: ToolImage): ToolResult =>
  image ? { ok: true, content, image } : { ok: true, content };
export const toolError = (error: string): ToolResult => ({ ok: false, error });
export const isToolError = (r: ToolResult): r is Extract<ToolResult, { ok: false }> => !r.ok;

/** What `run` is told about the call it serves. */
export interface ToolCallContext {
  sessionId: string;
  /** The model's id for this call. */
  toolCallId: string;
  /**
   * `<sessionId>:<toolCallId>`: the same on every attempt of this call, including a resume on
   * another worker, so effects it enqueues (outbox messages) are sent once.
   */
  idempotencyKey: string;
}

/**
 * A tool the model may call. `parameters` is checked with `safeParse` before `run` sees anything,
 * so `run` receives typed, valid arguments; rule checks (word caps, pauses, references) belong in
 * `run` and answer with `toolError`. Throw only when the infrastructure failed (Redis down): the
 * turn then rejects and its job resumes from the transcript, running this call again under the
 * same idempotency key.
 */
export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  parameters: S;
  run(args: z.output<S>, ctx: ToolCallContext): Promise<ToolResult> | ToolResult;
}

/** A tool of any schema, as a list of tools holds them. */
// biome-ignore lint/suspicious/noExplicitAny: a list of tools mixes argument types; each `run` stays typed where it is defined.
export type AnyTool = Tool<any>;

/** Declares a tool with its argument type inferred from the schema. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}
