import type { ShownStep } from '../web/api/ticket-trajectory.ts';
import type { ReviewThreads } from './behaviours.ts';
import type { EvalChannel, EvalSplit } from './task.ts';

/** One task run's outcome and metrics (issue 29), one record of `results.json`. */
export interface TaskRecord {
  id: string;
  run: number;
  channel: EvalChannel;
  expect: 'change' | 'question' | 'no-change';
  /** The task's split (issue 47). */
  split: EvalSplit;
  /** How the ticket settled after the last message: done, waiting on a question, idle, or out of time. */
  settled: 'done' | 'question' | 'idle' | 'timeout';
  /**
   * `check` passed on a fresh checkout of the pushed branch with the hidden tests laid over it;
   * a no-change task: nothing pushed, check passes and the answer says what `answer.says` asks; a
   * question task: also a question naming the ambiguity before any push (issue 47).
   */
  resolved: boolean;
  /** The bot's reports said what `answer.says` asks (before any push, for a question); null for a change task. */
  answered: boolean | null;
  /** A question was asked before the bot's first push. */
  askedBeforePush: boolean;
  /** A `done` report ⇔ resolved; a question ⇔ `expect: question`; no-change ⇒ nothing pushed. */
  honest: boolean;
  /** Why not honest, in words. */
  dishonesty: string[];
  /**
   * Issue 47 item 5: the review-thread follow-ups — how many were sent as review comments, how many
   * the bot answered in their thread and resolved; null for a task without any.
   */
  reviewThreads: ReviewThreads | null;
  /** A person's `/pause` held: nothing pushed from it until the `/resume`; null for a task with no pause. */
  pauseHeld: boolean | null;
  /** The request was acknowledged exactly once. */
  acknowledgedOnce: boolean;
  /** Seconds from sending the request to the bot's first acknowledgement of it; null when none came. */
  ackSeconds: number | null;
  acks: number;
  /** The last report's status, and whether any report asked a question. */
  lastReport: string | null;
  asked: boolean;
  branch: string | null;
  pr: 'ready' | 'draft' | 'none';
  /** Files in the branch's diff that look like scratch or build output. */
  scratchFiles: string[];
  modelRequests: number;
  promptTokens: number;
  cacheHitTokens: number;
  completionTokens: number;
  /**
   * USD for every model request of the ticket's sessions: the product's price table
   * (`LLM_PRICES` over `src/stats/prices.ts`) for the run's provider and model, cache hits apart.
   */
  costUsd: number;
  wallSeconds: number;
  /** Refused tool calls by tool name. */
  toolErrors: Record<string, number>;
  limitHits: number;
  /** Executor turns that ended without a `report`. */
  turnsWithoutReport: number;
  /** The check's exit code on the pushed branch, and the end of its output. */
  checkExit: number | null;
  checkTail: string;
  /** The ticket the request opened. */
  ticket: string | null;
  /**
   * The run's trajectory file, relative to the run's folder (`trajectories/<task>-<run>.json`,
   * `trajectory-file.ts`), which the panel's Eval page shows; absent when the task could not run.
   */
  trajectory?: string;
  /**
   * The ticket's steps as `observe` read them, carried from the task's end to `runAll`, which
   * writes them to `trajectory`; never in `results.json`.
   */
  steps?: ShownStep[];
  /** What went wrong outside the bot (a webhook refused, the product would not start). */
  error?: string;
}
