import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Job } from 'bullmq';
import type { TriggerCard } from '../../cards/card.ts';
import { retentionSeconds } from '../../cards/growth-bounds.ts';
import { loadCard } from '../../cards/ingest.ts';
import { renderCard } from '../../cards/render-card.ts';
import { buildSystemPrompt } from '../../prompts/index.ts';
import type { Runtime } from '../../runtime.ts';
import { requestSpend } from '../../safety/budget-gate.ts';
import { mainHeldForBudget, mainWithinBudget } from '../../safety/main-budget.ts';
import { retryPolicyOf } from '../../session/retry-policy.ts';
import { runTurn } from '../../session/run-turn.ts';
import type { AnyTool } from '../../session/tool.ts';
import { proceed, stopTurn, type TurnOutcome } from '../../session/turn-outcome.ts';
import { type Fence, withFence } from '../../store/fence.ts';
import { storeHandle } from '../../store/store-handle.ts';
import { countUndecided, handbackReasons } from '../../tickets/handback.ts';
import {
  addCandidate,
  dropMainBatch,
  hasCandidates,
  returnCandidates,
  scheduleMainTurn,
  takeCandidates,
} from '../candidates.ts';
import { noticesWake, type TakenNotices, takeNotices } from '../follow-up-notices.ts';
import type { MainBatch } from './batch.ts';
import { evalTool, readTool } from './context-tools.ts';
import { mainEnvironment } from './environment.ts';
import { guardTools } from './guard-tools.ts';
import { waitForMainLock, withMainLock } from './main-lock.ts';
import { mainReadCardTool } from './read-card-tool.ts';
import { reloadTool } from './reload-tool.ts';
import { renderNotices, renderReports } from './render-notices.ts';
import { routeTool } from './route-tool.ts';
import { noteTool, promptsSave } from './save-tools.ts';
import { stopTool } from './stop-tool.ts';

/** A candidate left undecided this many turns is dropped, so a confused model cannot loop. */
const MAX_UNDECIDED_TURNS = 2;

/** The head of a turn with news and no candidate (issue 30). */
const NEWS_HEAD = (
  await readFile(fileURLToPath(new URL('../../../prompts/loop/main-news.md', import.meta.url)), 'utf8')
).trim();

/**
 * One main-session turn (R-B1, R-B3): one at a time per deployment; takes every waiting
 * candidate and notice and lets the model route them all, then ends. Candidates, reports and
 * steering follow-ups arriving meanwhile queue the next turn (issue 30: they reach the main
 * session by themselves, batched — never a turn each).
 */
export async function runMainTurn(
  rt: Runtime,
  job: Job,
  token?: string,
): Promise<TurnOutcome | { kind: 'nothing' | 'superseded' }> {
  const { ctx } = rt;
  const turnId = job.id ?? 'main';
  const hold = { forBudget: false };
  let result: Awaited<ReturnType<typeof lockedMainTurn>> | 'locked' | 'superseded' | undefined;
  try {
    // Issue 46: a fenced lease; every effect of the turn carries its fence (`withFence`).
    result = await withMainLock(ctx, turnId, (fence) =>
      withFence(fence, () => lockedMainTurn(rt, turnId, fence, hold)),
    );
    // Only one main job runs at a time (`scheduleMainTurn`): a lock held by another is a holder
    // BullMQ gave up on, and this turn waits for it to lapse. A turn taken over by a newer runner
    // of the same job leaves the next turn to the newer one.
    if (result === 'locked') return waitForMainLock(ctx, job, token);
    if (result === 'superseded') return { kind: 'superseded' };
    return result;
  } finally {
    if (result !== 'locked' && result !== 'superseded') await queueNextMainTurn(rt, hold.forBudget);
  }
}

/**
 * Candidates and notices that arrived during a turn have waited long enough: no debounce (this
 * add, made while the job still runs, replaces the debounced one they queued to follow it).
 * Waiting for the budget, they wait for its release instead (a release during this turn has
 * queued the turn after it already).
 */
async function queueNextMainTurn(rt: Runtime, heldForBudget: boolean): Promise<void> {
  const { ctx } = rt;
  const held = heldForBudget && (await mainHeldForBudget(ctx));
  if (!held && rt.models.main && ((await hasCandidates(ctx)) || (await noticesWake(ctx))))
    await scheduleMainTurn(ctx, 0);
}

/** The main turn under its lock: its batch routed by the model, or nothing to do. */
async function lockedMainTurn(
  rt: Runtime,
  turnId: string,
  fence: Fence,
  hold: { forBudget: boolean },
): Promise<TurnOutcome | { kind: 'nothing' }> {
  const { ctx } = rt;
  // Issue 33 item 5: over the day's budget nothing is taken — the candidates and notices wait where
  // they are, and `releaseMainBudgetHold` queues this turn once the budget allows.
  if (!(await mainWithinBudget(ctx))) {
    hold.forBudget = true;
    return { kind: 'nothing' };
  }
  const batch = await loadBatch(rt, turnId);
  if (!batch.cards.size && !batch.notices.size && !batch.reports?.length) return { kind: 'nothing' };
  const model = rt.models.main;
  if (!model) {
    // Candidates wait for a model to be configured (a restart with LLM_* set picks them up).
    ctx.log.warn({ candidates: batch.cards.size }, 'no model configured: candidates wait');
    await returnCandidates(ctx, turnId, batch.cards.keys());
    return { kind: 'nothing' };
  }
  const outcome = await routeBatch(rt, batch, model, fence, () => {
    hold.forBudget = true;
  });
  // Stopped for the budget: the cards it did not decide wait again, that try not counted.
  if (hold.forBudget) await returnCandidates(ctx, turnId, undecided(batch));
  else await settleUndecided(rt, batch);
  await dropMainBatch(ctx, turnId);
  return outcome;
}

/** The main session's turn over one batch: the model routes its cards and reads its notices. */
async function routeBatch(
  rt: Runtime,
  batch: MainBatch,
  model: NonNullable<Runtime['models']['main']>,
  fence: Fence,
  onOverBudget: () => void,
): Promise<TurnOutcome> {
  const { ctx } = rt;
  const sessionId = `main-${batch.turnId}`;
  const tools = mainTools(rt, batch);
  let first = true;
  return runTurn({
    sessionId,
    turnId: batch.turnId,
    input: [{ role: 'user', content: await renderBatch(rt, batch) }],
    model,
    tools,
    hooks: {
      systemPrompt: async () => {
        return buildSystemPrompt(rt.prompts, rt.prompts.reader, {
          role: 'main',
          sessionId,
          environment: mainEnvironment(rt),
          tools: tools.map((t) => t.name),
        });
      },
      // Issue 33 item 5: its requests count in the day's cost, and stop when it is spent.
      spendOf: requestSpend(ctx),
      // The first request goes: the turn checked the budget just before taking its batch, and a
      // turn stopped before any request would drop the notices it took unread.
      beforeModelRequest: async () => {
        // Issue 46: nothing more once a newer runner holds the turn.
        if (!(await fence.holds())) return stopTurn('shutdown');
        if (first) {
          first = false;
          return proceed;
        }
        if (await mainWithinBudget(ctx)) return proceed;
        onOverBudget();
        return stopTurn('paused');
      },
    },
    limits: { maxModelRequests: 8 },
    ...storeHandle(ctx),
    sessionKind: 'main',
    // Issue 31: no ticket owns a main turn's session; it expires like a closed ticket's.
    transcriptTtlSeconds: retentionSeconds(ctx.config),
    contextTokens: ctx.config.mainContextTokens,
    // Issue 28 "model outages": about a minute of back-off (`LLM_RETRY_*`) before the request fails.
    retry: retryPolicyOf(ctx.config),
    log: ctx.log,
    metrics: ctx.metrics,
    signal: fence.signal,
  });
}

export function mainTools(rt: Runtime, batch: MainBatch): AnyTool[] {
  return [
    routeTool(rt, batch),
    evalTool(rt, batch),
    readTool(rt),
    reloadTool(rt),
    mainReadCardTool(rt, batch),
    promptsSave(rt, batch),
    noteTool(rt, batch),
    stopTool(rt, batch),
    ...guardTools(),
  ];
}

async function loadBatch(rt: Runtime, turnId: string): Promise<MainBatch> {
  const ids = await takeCandidates(rt.ctx, turnId);
  const cards = new Map<string, TriggerCard>();
  const reasons = new Map<string, Record<string, string>>();
  for (const id of ids) {
    const card = await loadCard(rt.ctx, id);
    if (!card) continue;
    cards.set(id, card);
    const r = await handbackReasons(rt.ctx, id);
    if (Object.keys(r).length) reasons.set(id, r);
  }
  // Issue 30: a turn with no candidate takes notices only when one calls for a turn (a report, a
  // steering follow-up); the rest ride with the next. Without a model nothing is taken.
  const take = rt.models.main && (cards.size > 0 || (await noticesWake(rt.ctx, turnId)));
  const taken: TakenNotices = take ? await takeNotices(rt.ctx, turnId) : { byTicket: new Map(), reports: [] };
  return { turnId, cards, reasons, decided: new Map(), notices: taken.byTicket, reports: taken.reports };
}

async function renderBatch(rt: Runtime, batch: MainBatch): Promise<string> {
  const parts = [
    batch.cards.size
      ? `${batch.cards.size} candidate(s) wait. Decide all of them in one orchestrator_route call.`
      : NEWS_HEAD,
  ];
  for (const [id, card] of batch.cards) {
    parts.push(renderCard(card));
    const reasons = batch.reasons.get(id);
    if (reasons) parts.push(...Object.entries(reasons).map(([t, why]) => `handed back by ${t}: ${why}`));
  }
  if (batch.notices.size) parts.push(await renderNotices(rt.ctx, batch.notices));
  if (batch.reports?.length) parts.push(renderReports(batch.reports));
  return parts.join('\n\n');
}

const undecided = (batch: MainBatch): string[] =>
  [...batch.cards.keys()].filter((id) => !batch.decided.has(id));

async function settleUndecided(rt: Runtime, batch: MainBatch): Promise<void> {
  for (const id of undecided(batch)) {
    const tries = await countUndecided(rt.ctx, id);
    if (tries < MAX_UNDECIDED_TURNS) await addCandidate(rt.ctx, id);
    else rt.ctx.log.warn({ cardId: id }, 'candidate left undecided twice: dropped');
  }
}
