import { usageCounts } from '../../stats/daily-counts.ts';
import type { ChatMessage } from '../chat-message.ts';
import type { ModelUsage } from '../model-reply.ts';
import type { RetryHooks } from '../request-with-retry.ts';
import { countCost, countRequest, countTokens } from '../turn-metrics.ts';
import type { TurnRun } from '../turn-run.ts';
import { type ContextState, contextView } from './context-state.ts';
import { estimateFixedTokens } from './count-tokens.ts';
import {
  type CompactionPlan,
  defaultContextBudget,
  elideAll,
  HARD_LIMIT,
  planCompaction,
  viewTokens,
  withSummary,
} from './plan-compaction.ts';
import { summariseSteps } from './summarise-steps.ts';

export type Prepared = { ok: true; messages: ChatMessage[]; tokens: number } | { ok: false; aborted: true };

/**
 * The messages of the next request, compacted first when they would pass ~75 % of the window
 * (R-H2), or always when `force` (the provider refused the request as too long). The new state is
 * saved in the transcript (with the turn's usage, one MULTI) before the request goes out, so a
 * resumed turn reads it and never compacts again; a worker that dies before that save has lost
 * only the summarising call, which the resumed turn makes again (it has no effect outside).
 * `hooks` are the turn's own (shutdown signal, failed attempts counted and logged).
 */
export async function compactTranscript(
  run: TurnRun,
  system: string,
  hooks: RetryHooks,
  force = false,
): Promise<Prepared> {
  const fixedTokens = estimateFixedTokens(system, run.functionTools);
  const { factor, window } = run.context;
  const plan = planCompaction({
    messages: run.messages,
    state: run.context.state,
    fixedTokens,
    window,
    factor,
    force,
  });
  if (plan) {
    let next = plan.state;
    let usage: ModelUsage | undefined;
    if (plan.summarise) {
      const summarised = await summarise(run, plan, plan.summarise, hooks);
      if (!summarised.ok) return summarised;
      next = summarised.state;
      usage = summarised.usage;
    }
    if (fixedTokens * factor + viewTokens(run.messages, next, factor) > window * HARD_LIMIT)
      next = elideAll(next, run.messages);
    // Before the save: a worker dying between the two has forgotten reads, never kept a cut one.
    await run.hooks.beforeCompaction?.(run.messages, next);
    if (plan.summarise) next = await withReattached(run, next, fixedTokens);
    await save(run, next, usage);
  }
  const messages = contextView(run.messages, run.context.state);
  return { ok: true, messages, tokens: Math.ceil(fixedTokens + viewTokens(run.messages, run.context.state)) };
}

/** The one summarising call, its cost counted on the turn and in the metrics. */
async function summarise(
  run: TurnRun,
  plan: CompactionPlan,
  span: { from: number; to: number },
  hooks: RetryHooks,
): Promise<{ ok: true; state: ContextState; usage: ModelUsage } | { ok: false; aborted: true }> {
  const { factor, window } = run.context;
  const summary = await summariseSteps(
    run.model,
    {
      messages: run.messages,
      state: run.context.state,
      elided: plan.state,
      ...span,
      inputTokens: Math.floor((window * 0.6) / factor),
      summaryTokens: Math.floor((window * defaultContextBudget.summaryShare) / factor),
    },
    run.retry,
    hooks,
  );
  if (!summary.ok) return summary;
  if (summary.answered) {
    countRequest(run.metrics, run.sessionKind, run.model.model, 'ok');
    countTokens(run.metrics, run.sessionKind, run.model.model, summary.usage);
  }
  run.turn.tokens += summary.usage.promptTokens + summary.usage.completionTokens;
  if (!summary.fromModel)
    run.log?.warn(
      { sessionId: run.sessionId },
      'the summarising call gave nothing: a digest of the steps stands in',
    );
  // Issue 48: the newest plan (update_plan) goes after the summary, so it stays in view.
  const planned = await run.hooks.planInView?.();
  const text = planned ? `${summary.text}\n\n${planned}` : summary.text;
  return { ok: true, state: withSummary(plan.state, span.to, text), usage: summary.usage };
}

async function save(run: TurnRun, next: ContextState, usage: ModelUsage | undefined): Promise<void> {
  const before = run.context.state;
  const at = run.now();
  const step = {
    kind: 'compaction' as const,
    at,
    index: run.messages.length,
    compactions: next.compactions,
    summarisedBefore: next.summarisedBefore,
    elidedBefore: next.elidedBefore,
  };
  // Issue 17: the summarising request's tokens count in the day's charts like any other request.
  const spend = usage ? run.hooks.spendOf?.(run.model.model, usage, at) : undefined;
  countCost(run.metrics, run.sessionKind, run.model.model, spend?.nanos);
  const daily = usage ? usageCounts(run.sessionKind, at, usage, spend) : undefined;
  // Issue 33: the summary's tokens count in the caller's budget with it (no request: not an answer).
  const tokens = usage ? usage.promptTokens + usage.completionTokens : 0;
  const also = tokens ? run.hooks.countUsage?.({ modelRequests: 0, tokens }) : undefined;
  await run.store.saveContext(run.sessionId, next, run.turn, usage, step, daily, also);
  run.context.state = next;
  run.log?.info(
    {
      sessionId: run.sessionId,
      compactions: next.compactions,
      elidedBefore: next.elidedBefore,
      summarisedBefore: next.summarisedBefore,
      summarised: next.summarisedBefore - before.summarisedBefore,
    },
    'transcript compacted',
  );
}

/**
 * Issue 48 item 5: the files the session edited most recently go after the summary (the hook
 * notes them as read, after `beforeCompaction` forgot the reads the view lost), in what is left of
 * the window below the hard limit, and never more than a tenth of it.
 */
async function withReattached(run: TurnRun, next: ContextState, fixedTokens: number): Promise<ContextState> {
  const { factor, window } = run.context;
  const room = window * HARD_LIMIT - fixedTokens * factor - viewTokens(run.messages, next, factor);
  const budgetChars = Math.floor((Math.min(room, window * 0.1) / factor) * 4);
  if (budgetChars < 200 || next.summary === undefined) return next;
  const files = await run.hooks.reattach?.(run.messages, budgetChars);
  return files ? withSummary(next, next.summarisedBefore, `${next.summary}\n\n${files}`) : next;
}
