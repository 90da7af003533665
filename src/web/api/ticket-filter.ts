import { HttpError } from '../../errors/http-error.ts';
import type { StatusState } from '../../status/status-model.ts';
import type { TicketState } from '../../tickets/ticket.ts';
import { type TicketSummary, WAITING_ON, type WaitingOn } from './ticket-summary.ts';

const STATES: readonly TicketState[] = ['open', 'working', 'waiting', 'done', 'cancelled'];
const PARAMS = new Set(['q', 'state', 'repo', 'requester', 'pr', 'waiting', 'limit']);
const MAX_TEXT = 200;
const REPO = /^[\w.-]+\/[\w.-]+$/;

/** `GET /api/tickets`' filters, validated (issue 49 item 4). */
export interface TicketFilter {
  q?: string;
  states?: TicketState[];
  repo?: string;
  requester?: string;
  pr?: boolean;
  waiting?: WaitingOn;
  limit: number;
}

const bad = (reason: string): never => {
  throw new HttpError(400, 'bad_filter', reason);
};

function text(raw: string | undefined, name: string): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (v.length > MAX_TEXT) bad(`${name}: at most ${MAX_TEXT} characters`);
  return v;
}

function oneOf<T extends string>(raw: string | undefined, name: string, values: readonly T[]): T | undefined {
  const v = text(raw, name);
  if (v === undefined) return undefined;
  if (!values.includes(v as T)) bad(`${name}: one of ${values.join(', ')}`);
  return v as T;
}

function limitOf(raw: string | undefined, max: number): number {
  const v = text(raw, 'limit');
  if (v === undefined) return 100;
  if (!/^\d{1,4}$/.test(v) || Number(v) < 1) bad(`limit: a whole number from 1 to ${max}`);
  return Math.min(max, Number(v));
}

/** The query's filters; an unknown parameter or value is a 400 that says which and why. */
export function ticketFilterOf(query: Record<string, string>, maxLimit: number): TicketFilter {
  for (const name of Object.keys(query))
    if (!PARAMS.has(name)) bad(`unknown parameter ${name.slice(0, 40)}: use ${[...PARAMS].join(', ')}`);
  const states = text(query.state, 'state')
    ?.split(',')
    .map((s) => oneOf(s, 'state', STATES) ?? bad('state: an empty value in the list'));
  const repo = text(query.repo, 'repo');
  if (repo && !REPO.test(repo)) bad('repo: owner/name');
  const pr = oneOf(query.pr, 'pr', ['yes', 'no'] as const);
  const q = text(query.q, 'q');
  const requester = text(query.requester, 'requester');
  const waiting = oneOf(query.waiting, 'waiting', WAITING_ON);
  return {
    limit: limitOf(query.limit, maxLimit),
    ...(q ? { q: q.toLowerCase() } : {}),
    ...(states ? { states } : {}),
    ...(repo ? { repo: repo.toLowerCase() } : {}),
    ...(requester ? { requester: requester.toLowerCase() } : {}),
    ...(pr ? { pr: pr === 'yes' } : {}),
    ...(waiting ? { waiting } : {}),
  };
}

/** What one ticket waits on, if anything a person must do. */
export function waitingOn(status: StatusState, t: Pick<TicketSummary, 'pause'>): WaitingOn | null {
  if (status === 'waiting') return 'answer';
  if (status === 'blocked') return 'blocked';
  if (status === 'paused') return t.pause?.via === 'budget' ? 'budget' : 'paused';
  return null;
}

const has = (v: string | undefined, needle: string) => Boolean(v?.toLowerCase().includes(needle));

/** Whether a listed ticket passes every filter given. */
export function passes(t: TicketSummary, f: TicketFilter): boolean {
  const who = t.owners.requester;
  if (f.states && !f.states.includes(t.state)) return false;
  if (f.repo && t.repo?.toLowerCase() !== f.repo) return false;
  if (f.requester && who.id.toLowerCase() !== f.requester && who.name?.toLowerCase() !== f.requester)
    return false;
  if (f.pr !== undefined && Boolean(t.pr) !== f.pr) return false;
  // "paused" covers a budget's pause too: both are paused.
  if (f.waiting && t.waitingOn !== f.waiting && !(f.waiting === 'paused' && t.waitingOn === 'budget'))
    return false;
  if (
    f.q &&
    ![t.id, t.title, t.repo ?? '', who.id, who.name ?? '', t.question ?? ''].some((s) => has(s, f.q ?? ''))
  )
    return false;
  return true;
}
