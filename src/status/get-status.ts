import type { Ctx } from '../context.ts';
import { ticketPlan } from '../executor/plan/plan-record.ts';
import { ticketPr } from '../executor/workspace/delivery-records.ts';
import { loadWorkspace } from '../executor/workspace/workspace-record.ts';
import { languageForTicket } from '../i18n/choose-language.ts';
import { getPause } from '../tickets/pause.ts';
import { lastReport } from '../tickets/reports.ts';
import { getTicket } from '../tickets/ticket-store.ts';
import { readStatusFacts, type StatusFacts } from './status-facts.ts';
import {
  deriveState,
  type StatusAnswer,
  type StatusCall,
  type StatusQuestion,
  type TicketStatus,
} from './status-model.ts';

type ReadCtx = Pick<Ctx, 'redis' | 'keys' | 'now' | 'config' | 'log'>;

/** A branch's web page: beside the PR when there is one, else on github.com for the public API. */
function branchUrl(apiUrl: string, repo: string, branch: string, prUrl?: string): string | undefined {
  const path = `tree/${branch.split('/').map(encodeURIComponent).join('/')}`;
  if (prUrl) return prUrl.replace(/pull\/\d+\/?$/, path);
  return /^https:\/\/api\.github\.com\/?$/.test(apiUrl) ? `https://github.com/${repo}/${path}` : undefined;
}

/** The question with the answer pressed for it, if any (an answer to an older question is dropped). */
function withAnswer(q: StatusQuestion | undefined, a: StatusAnswer | undefined): StatusQuestion | undefined {
  return q && a && a.askedAt === q.at ? { ...q, answer: a } : q;
}

/** Issue 33: the call with how long it has run (or ran) and how long ago it returned, as of `now`. */
function callNow(call: NonNullable<StatusFacts['call']>, now: number): StatusCall {
  const end = call.endedAt ?? now;
  return {
    ...call,
    ms: Math.max(0, end - call.startedAt),
    ...(call.endedAt ? { idleMs: Math.max(0, now - call.endedAt) } : {}),
  };
}

/**
 * The ticket's status as its status message and the panel show it (issue 9), read fresh from the
 * ticket, its pause, its latest report, PR and workspace, and the status facts the hooks recorded.
 */
export async function getStatus(ctx: ReadCtx, ticketId: string): Promise<TicketStatus | undefined> {
  const ticket = await getTicket(ctx, ticketId);
  if (!ticket) return undefined;
  const [pause, facts, report, pr, ws, lang, plan] = await Promise.all([
    getPause(ctx, ticketId),
    readStatusFacts(ctx, ticketId),
    lastReport(ctx, ticketId),
    ticketPr(ctx, ticketId),
    loadWorkspace(ctx, ticketId),
    languageForTicket(ctx, ticket),
    ticketPlan(ctx, ticketId),
  ]);
  const question = withAnswer(facts.question, facts.answer);
  const summary = report?.summary;
  const state = deriveState({ ticketState: ticket.state, paused: Boolean(pause), question });
  const end = state === 'done' ? (facts.doneAt ?? ticket.updatedAt) : ctx.now();
  const branchLink = ws && branchUrl(ctx.config.GITHUB_API_URL, ws.repo, ws.branch, pr?.url);
  return {
    ticketId,
    title: ticket.title,
    state,
    ...(pause ? { pausedBy: pause.by } : {}),
    ...(facts.step ? { step: facts.step } : {}),
    ...(facts.call ? { call: callNow(facts.call, ctx.now()) } : {}),
    ...(summary ? { summary } : {}),
    ...(question ? { question } : {}),
    ...(ws ? { branch: branchLink ? { name: ws.branch, url: branchLink } : { name: ws.branch } } : {}),
    ...(pr ? { pr: { label: `${pr.repo}#${pr.number}`, url: pr.url } } : {}),
    ...(plan?.steps.length ? { plan: plan.steps } : {}),
    elapsedMs: Math.max(0, end - ticket.createdAt),
    usage: { modelRequests: facts.modelRequests, tokens: facts.tokens },
    lang,
  };
}
