import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { Logger } from '../logger.ts';
import type { Spend } from '../stats/daily-counts.ts';
import type { StoreHandle } from '../store/store-handle.ts';
import type { ChatMessage, ToolCall } from './chat-message.ts';
import type { ContextState, TurnContext } from './context/context-state.ts';
import type { ModelClient } from './model-client.ts';
import type { ModelUsage } from './model-reply.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { AnyTool, ToolResult } from './tool.ts';
import type { StepWrite, TranscriptLifetime, TranscriptStore } from './transcript-store.ts';
import type { TurnLimits } from './turn-limits.ts';
import type { TurnMetrics } from './turn-metrics.ts';
import type { GateVerdict, TurnOutcome } from './turn-outcome.ts';
import type { TurnState } from './turn-state.ts';

/**
 * The system prompt as assembled now, and the prompts revision it came from (R-F3). The one shape
 * of a system prompt (issue 20): `buildSystemPrompt` returns it, with the policy revision beside.
 */
export interface SystemPrompt {
  text: string;
  /** The prompt settings revision (`promptsHead`) the text was assembled from. */
  revision: number;
}

/** What the caller decides at each step of a turn. */
export interface TurnHooks {
  /** Called before every model request, so a settings save between two requests changes the second (R-F3). */
  systemPrompt(): Promise<SystemPrompt>;
  /** Checked before every model request; a stop ends the turn there (R-D2 pauses). */
  beforeModelRequest?(): Promise<GateVerdict> | GateVerdict;
  /** Checked before every tool call that has not already run. */
  beforeToolCall?(call: ToolCall): Promise<GateVerdict> | GateVerdict;
  /**
   * Asked when the model answers without a tool call (issue 28 "no silent stop"): a note to give
   * the model instead of ending the turn (work it left unreported), or undefined to end it. Asked
   * at most twice a turn.
   */
  beforeEnd?(calls: readonly TurnCall[]): Promise<string | undefined> | string | undefined;
  /**
   * Asked before each model request (issue 28): true sends it without thinking where the provider
   * switches thinking per request (`ModelRequest.withoutThinking`) — the executor's acknowledging
   * request, so the person waits for no reasoning before hearing back.
   */
  withoutThinking?(turn: Readonly<TurnState>): Promise<boolean> | boolean;
  /**
   * Called with a compaction's new state before it is saved (R-H2, issue 28): the executor forgets
   * the files whose reads the view no longer shows whole, so they are read again before a rewrite.
   */
  beforeCompaction?(messages: readonly ChatMessage[], next: ContextState): Promise<void> | void;
  /**
   * Issue 48 item 5: after a compaction summarised steps away (and after `beforeCompaction`), text
   * to go after the summary — the executor's most recently edited files, noted as read — in at
   * most `budgetChars` characters.
   */
  reattach?(messages: readonly ChatMessage[], budgetChars: number): Promise<string | undefined>;
  /** Issue 48 item 4: the caller's plan as it stands, to go after a compaction's summary. */
  planInView?(): Promise<string | undefined>;
  /**
   * Issue 33 item 5: what a model request (an answer or a compaction's summary) cost and whom it
   * is charged to, counted in the day's charts and the ticket's cost with the step that stores it.
   */
  spendOf?(model: string, usage: ModelUsage, at: number): Spend | undefined;
  /**
   * Issue 33: what a model request's usage (an answer: one request; a compaction's summary: its
   * tokens) adds to the caller's own records, written in the MULTI that stores it — a ticket's
   * budget used grows after every request, and a resumed turn never counts one twice.
   */
  countUsage?(usage: { modelRequests: number; tokens: number }): StepWrite;
  /** Called once a model request's answer is stored (issue 33: the status shows the new budget). */
  afterModelRequest?(): Promise<void> | void;
}

/** A tool call this turn made, with its arguments as sent and whether it succeeded. */
export interface TurnCall {
  name: string;
  arguments: string;
  ok: boolean;
}

/** The store (`redis`, `keys`) is passed on to the transcript's and revisions' owners. */
export interface RunTurnOptions extends StoreHandle, TranscriptLifetime {
  sessionId: string;
  /** The turn's id (its job id): running again with the same id resumes it, a new id opens a new turn. */
  turnId: string;
  /** Messages that open the turn (trigger cards, notes); appended once, not again on resume. */
  input: readonly ChatMessage[];
  model: ModelClient;
  tools: readonly AnyTool[];
  hooks: TurnHooks;
  limits?: Partial<TurnLimits>;
  retry?: Partial<RetryPolicy>;
  metrics?: TurnMetrics;
  /** Metrics label and log field: `main` or `executor`. */
  sessionKind?: string;
  log?: Logger;
  now?: () => number;
  /**
   * Aborted when the worker shuts down: a model request in flight is cancelled and the turn
   * stops as `stopped`/`shutdown`, resumable under the same `turnId` elsewhere.
   */
  signal?: AbortSignal;
  /**
   * The model's context window in tokens (R-H2): past ~75 % of it the transcript is compacted.
   * Defaults to the working window of `model.model` (see `defaultContextTokens`).
   */
  contextTokens?: number;
  /**
   * Issue 18: which tool calls may run as soon as they are complete in a streamed answer, before
   * the answer ends (the executor's acknowledgement). Such a call must be idempotent by its key.
   */
  runEarly?: (call: ToolCall) => boolean;
  /**
   * Issue 28: calls that only read (files, searches) and may run at the same time as the other
   * such calls next to them in one answer.
   */
  runTogether?: (call: ToolCall) => boolean;
}

/** One turn in progress: its options resolved, and the transcript mirrored in memory. */
export interface TurnRun extends StoreHandle {
  sessionId: string;
  model: ModelClient;
  tools: readonly AnyTool[];
  functionTools: ChatCompletionFunctionTool[];
  hooks: TurnHooks;
  store: TranscriptStore;
  limits: TurnLimits;
  retry: RetryPolicy;
  metrics: TurnMetrics | undefined;
  sessionKind: string;
  log: Logger | undefined;
  now: () => number;
  messages: ChatMessage[];
  results: Map<string, ToolResult>;
  turn: TurnState;
  signal: AbortSignal | undefined;
  /** The compaction state, the window and the estimate's factor (R-H2). */
  context: TurnContext;
  runEarly: ((call: ToolCall) => boolean) | undefined;
  runTogether: ((call: ToolCall) => boolean) | undefined;
  /** Calls started while their answer streamed, by call key, until their result is recorded. */
  early: Map<string, Promise<ToolResult | undefined>>;
}

/** A step either finishes the turn with an outcome or lets it go on (tagged by `kind`, AGENTS.md). */
export type StepResult = { kind: 'finished'; outcome: TurnOutcome } | { kind: 'go_on' };
export const goOn: StepResult = { kind: 'go_on' };
