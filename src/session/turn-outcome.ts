import { z } from 'zod';

/** Why a gate stopped a turn (R-D2: a pause stops the running turn before its next step). */
export type StopReason = 'paused' | 'cancelled' | 'shutdown';

/** A budget a turn can exhaust (issue 4: per-ticket budgets). */
export type LimitName = 'model_requests' | 'tokens' | 'wall_time';

/** What a turn used, reported with every outcome. */
export interface TurnUsage {
  modelRequests: number;
  tokens: number;
  elapsedMs: number;
}

/**
 * How a turn ended. `ended`: the model answered without tool calls. `stopped`: a gate said no
 * before the next model request or tool call. `limit`: a budget tripped. `failed`: the model
 * could not be reached after retries (`transient`: it kept failing as an outage does, issue 28)
 * or refused the request.
 */
export type TurnOutcome = (
  | { kind: 'ended'; text: string | null }
  | { kind: 'stopped'; reason: StopReason; before: 'model_request' | 'tool_call' }
  | { kind: 'limit'; limit: LimitName; detail: string }
  | { kind: 'failed'; reason: string; transient?: true }
) & { usage: TurnUsage };

export type TurnOutcomeKind = TurnOutcome['kind'];

/** A gate's answer: go on (`ok`), or stop the turn here with a reason. */
export type GateVerdict = { ok: true } | { ok: false; reason: StopReason };

/**
 * Why an aborted signal stopped a turn: the reason it was aborted with when that is a stop reason
 * (a pause, issue 28), else a shutdown (the worker's signal aborts with none).
 */
export function stopReasonOf(signal: AbortSignal | undefined): StopReason {
  const why: unknown = signal?.reason;
  return why === 'paused' || why === 'cancelled' ? why : 'shutdown';
}

export const proceed: GateVerdict = { ok: true };
export const stopTurn = (reason: StopReason): GateVerdict => ({ ok: false, reason });

const TurnUsageSchema = z.object({ modelRequests: z.number(), tokens: z.number(), elapsedMs: z.number() });

/** A turn's outcome as its stored turn state keeps it (issue 20: read through zod). */
export const TurnOutcomeSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('ended'), text: z.string().nullable() }),
    z.object({
      kind: z.literal('stopped'),
      reason: z.enum(['paused', 'cancelled', 'shutdown']),
      before: z.enum(['model_request', 'tool_call']),
    }),
    z.object({
      kind: z.literal('limit'),
      limit: z.enum(['model_requests', 'tokens', 'wall_time']),
      detail: z.string(),
    }),
    z.object({ kind: z.literal('failed'), reason: z.string(), transient: z.literal(true).exactOptional() }),
  ])
  .and(z.object({ usage: TurnUsageSchema })) satisfies z.ZodType<TurnOutcome, unknown>;
