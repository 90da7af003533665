import { z } from 'zod';

/**
 * A kept trajectory file (`trajectory-file.ts`) as the panel reads it (issue 29): every step with
 * the fields the trajectory view draws, checked, so a damaged file shows as unreadable rather
 * than half a page. Mirrors `ShownStep`.
 */

const excerpt = z.object({ head: z.string(), chars: z.number().int().min(0), full: z.string().optional() });
const at = z.number().optional();
const base = { session: z.string(), at };

const usage = z.object({
  promptTokens: z.number(),
  cacheHitTokens: z.number(),
  completionTokens: z.number(),
});

const step = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('turn'), ...base, turnId: z.string().optional(), input: excerpt }),
  z.object({
    kind: z.literal('model'),
    ...base,
    ms: z.number().optional(),
    model: z.string().optional(),
    revision: z.number().optional(),
    usage: usage.optional(),
    text: excerpt.nullable(),
    reasoningChars: z.number(),
    calls: z.array(z.string()),
  }),
  z.object({
    kind: z.literal('tool'),
    ...base,
    ms: z.number().optional(),
    name: z.string(),
    callKey: z.string(),
    ok: z.boolean(),
    result: excerpt,
    args: excerpt,
    exitCode: z.number().optional(),
    files: z.array(z.string()).optional(),
    message: z.object({ to: z.string(), text: z.string(), outboxKey: z.string() }).optional(),
    sent: z.object({ at: z.number(), id: z.string().nullable() }).nullable().optional(),
  }),
  z.object({
    kind: z.literal('compaction'),
    ...base,
    compactions: z.number(),
    summarisedBefore: z.number(),
    elidedBefore: z.number(),
  }),
  z.object({ kind: z.literal('note'), ...base, note: z.string(), text: excerpt }),
  z.object({ kind: z.literal('end'), ...base, outcome: z.string(), detail: z.string().optional() }),
  z.object({
    kind: z.enum(['pause', 'resume']),
    at,
    by: z.string(),
    via: z.string(),
    detail: z.string().optional(),
  }),
]);

export const trajectoryFileSchema = z.object({
  task: z.string(),
  run: z.number().int(),
  ticket: z.string().nullable(),
  steps: z.array(step),
});
