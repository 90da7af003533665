import type { ChatMessage } from '../chat-message.ts';
import { type ContextState, contextView, isStepStart, viewedMessage } from './context-state.ts';
import { estimateMessageTokens } from './count-tokens.ts';

/**
 * The budget, as shares of the window (R-H2). Compaction starts past `compactAt` and goes down to
 * `compactTo` in one go, so the next one is far away and the prefix in between stays stable (the
 * provider's cache serves it). The newest steps up to `keepRecent` keep their tool outputs whole.
 * `summaryShare` is what the "progress so far" may take.
 */
export interface ContextBudget {
  compactAt: number;
  compactTo: number;
  keepRecent: number;
  summaryShare: number;
}

export const defaultContextBudget: ContextBudget = {
  compactAt: 0.75,
  compactTo: 0.45,
  keepRecent: 0.2,
  summaryShare: 0.08,
};

/** Past this share of the window even the recent outputs are elided: the request must fit. */
export const HARD_LIMIT = 0.9;

export interface PlanInput {
  messages: readonly ChatMessage[];
  state: ContextState;
  /** Tokens of the system prompt and tool schemas. */
  fixedTokens: number;
  window: number;
  /** Estimate multiplier learned from the provider's counts (≥ 1). */
  factor?: number;
  budget?: ContextBudget;
  /** Compact even under the threshold (the provider said the request was too long). */
  force?: boolean;
}

/** What to do: the new state, and the steps `[from, to)` to summarise into it first, if any. */
export interface CompactionPlan {
  state: ContextState;
  summarise?: { from: number; to: number };
}

/**
 * Decides a compaction, or none while the view fits under the threshold. First tool outputs older
 * than the recent steps are elided; if the view is still over the target, the oldest steps up to
 * the smallest step boundary that brings it under are to be summarised (never past the recent
 * steps). Cuts fall only on step starts, so a tool call and its results stay together.
 */
export function planCompaction(input: PlanInput): CompactionPlan | undefined {
  const { messages, state, window } = input;
  const b = input.budget ?? defaultContextBudget;
  const factor = input.factor ?? 1;
  const fixed = input.fixedTokens * factor;
  const viewTokensOf = (s: ContextState) => viewTokens(messages, s, factor);
  if (!input.force && fixed + viewTokensOf(state) <= window * b.compactAt) return undefined;

  const target = window * b.compactTo;
  const tail = recentStart(messages, state, (window * b.keepRecent) / factor);
  const elided: ContextState = {
    ...state,
    elidedBefore: Math.max(state.elidedBefore, tail),
    compactions: state.compactions + 1,
  };
  if (fixed + viewTokensOf(elided) <= target) return changed(state, elided);

  // Each message's cost as the elided view shows it, to find the cut in one pass.
  const cost = messages.map((_, i) => estimateMessageTokens(viewedMessage(messages, i, elided)) * factor);
  const summaryCost = window * b.summaryShare;
  let rest = sum(cost.slice(state.summarisedBefore));
  let cut = state.summarisedBefore;
  while (cut < tail && fixed + summaryCost + rest > target) {
    rest -= cost[cut] ?? 0;
    cut += 1;
    while (cut < tail && !isStepStart(messages, cut)) rest -= cost[cut++] ?? 0;
  }
  if (cut <= state.summarisedBefore) {
    // Nothing older is left to summarise: only the recent outputs can still shrink.
    const over = input.force || fixed + viewTokensOf(elided) > window * HARD_LIMIT;
    return changed(state, over ? elideAll(elided, messages) : elided);
  }
  return { state: elided, summarise: { from: state.summarisedBefore, to: cut } };
}

/**
 * Where the recent steps start: whole steps from the end while their tokens stay within
 * `budget`, and at least the last step (the results the model is about to read).
 */
export function recentStart(messages: readonly ChatMessage[], state: ContextState, budget: number): number {
  let start = messages.length;
  let used = 0;
  for (let i = messages.length - 1; i >= state.summarisedBefore; i--) {
    used += estimateMessageTokens(messages[i] as ChatMessage);
    if (!isStepStart(messages, i)) continue;
    if (used > budget && start < messages.length) break;
    start = i;
  }
  return Math.max(start, state.summarisedBefore);
}

/** Nothing older can go: elide the recent outputs too (one huge result in a small window). */
export function elideAll(state: ContextState, messages: readonly ChatMessage[]): ContextState {
  return { ...state, elidedBefore: messages.length };
}

/** The state once the summary of `[from, to)` is written. */
export function withSummary(state: ContextState, to: number, summary: string): ContextState {
  return { ...state, summarisedBefore: to, summary };
}

/** Tokens of the view under `state` (the factor applied), for the final check after summarising. */
export function viewTokens(messages: readonly ChatMessage[], state: ContextState, factor = 1): number {
  return sum(contextView(messages, state).map(estimateMessageTokens)) * factor;
}

/** A plan only when a mark moved: re-saving the same view would be a compaction in name only. */
function changed(before: ContextState, after: ContextState): CompactionPlan | undefined {
  const moved = after.elidedBefore > before.elidedBefore || after.summarisedBefore > before.summarisedBefore;
  return moved ? { state: after } : undefined;
}

const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);
