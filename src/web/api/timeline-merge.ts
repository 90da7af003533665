import type { Excerpt } from '../../session/trajectory/excerpt.ts';
import type { TicketReport } from '../../tickets/reports.ts';
import type { ShownStep } from './ticket-trajectory.ts';

/** A card on the ticket as the timeline needs it: who wrote what, where, when, and why it attached. */
export interface TimelineCard {
  cardId: string;
  at: number;
  why: string;
  card: {
    source: string;
    kind: string;
    author: { id: string; name?: string | undefined };
    receivedAt?: number | undefined;
    excerpt: string;
  } | null;
}

/** One tool call of a turn with the model request that chose it folded in (issue 49 item 1). */
export interface StepRow {
  at?: number | undefined;
  kind: 'tool' | 'model' | 'compaction' | 'note';
  name?: string;
  ok?: boolean;
  args?: string;
  ms?: number | undefined;
  exitCode?: number | undefined;
  files?: string[] | undefined;
  edit?: { old: string; new: string; cut: boolean } | undefined;
  result?: Excerpt;
  text?: Excerpt | null;
  model?: {
    name?: string | undefined;
    ms?: number | undefined;
    tokens: number;
    revision?: number | undefined;
  };
  callKey?: string;
}

/**
 * One entry of the ticket's timeline, in time order (issue 49 item 1): a person's message, the
 * bot's message, a run of agent steps of one turn, a commit, the PR, a report (with its question),
 * a pause or a resume. Internal ids ride along for the page's Details only.
 */
export type TimelineItem =
  | ({ kind: 'message' } & TimelineCard)
  | {
      kind: 'bot';
      at: number;
      purpose: string;
      text: string;
      to: string;
      session: string;
      sent: { at: number; id: string | null } | null;
      outboxKey: string;
    }
  | {
      kind: 'steps';
      at: number;
      session: string;
      main: boolean;
      turn: number;
      rows: StepRow[];
      /** How the turn ended when it did not end by answering: `stopped`, `limit`, `failed`. */
      outcome?: string;
      detail?: string | undefined;
    }
  | { kind: 'commit'; at: number; message: string; session: string; result: string }
  | {
      kind: 'pr';
      at: number;
      /** What the call did to the ticket's PR. */
      event: 'opened' | 'ready' | 'closed';
      title: string;
      pr: { repo: string; number: number; url: string } | null;
    }
  | { kind: 'report'; at: number; report: TicketReport }
  | { kind: 'pause' | 'resume'; at: number; by: string; via: string; detail?: string | undefined };

export interface TimelineParts {
  steps: ShownStep[];
  cards: TimelineCard[];
  reports: TicketReport[];
  pr: { repo: string; number: number; url: string } | null;
}

const TEXT_CAP = 4000;
/** Messages first among things at the same millisecond: a request precedes what answers it. */
const RANK: Record<TimelineItem['kind'], number> = {
  message: 0,
  pause: 1,
  resume: 1,
  steps: 2,
  bot: 3,
  commit: 3,
  pr: 3,
  report: 4,
};

/**
 * The ticket's cards, reports and trajectory as one list by time (issue 49 item 1). A turn's
 * steps are grouped, each model request folded into the call it made; the calls people care
 * about — a message sent, a commit, the PR — stand on their own between the groups; `report`
 * calls are left to the report records, which carry the question.
 */
export function mergeTimeline(parts: TimelineParts): TimelineItem[] {
  const items: TimelineItem[] = [];
  for (const c of parts.cards) items.push({ kind: 'message', ...c, at: c.card?.receivedAt ?? c.at });
  for (const r of parts.reports) items.push({ kind: 'report', at: r.at, report: r });
  items.push(...stepItems(parts.steps, parts.pr));
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => a.item.at - b.item.at || RANK[a.item.kind] - RANK[b.item.kind] || a.i - b.i)
    .map(({ item }) => item);
}

type Model = Extract<ShownStep, { kind: 'model' }>;
type Steps = Extract<TimelineItem, { kind: 'steps' }>;
type Tool = Extract<ShownStep, { kind: 'tool' }>;

/** The trajectory's steps as timeline items: runs of steps per turn and the calls that stand alone. */
function stepItems(steps: ShownStep[], pr: TimelineParts['pr']): TimelineItem[] {
  const out: TimelineItem[] = [];
  const run = new Map<string, Steps>();
  const chose = new Map<string, Model>();
  const turns = new Map<string, number>();
  let lastAt = 0;
  const open = (session: string, at: number) => {
    const r: Steps = {
      kind: 'steps',
      at,
      session,
      main: session.startsWith('main-'),
      turn: turns.get(session) ?? 1,
      rows: [],
    };
    run.set(session, r);
    out.push(r);
    return r;
  };
  for (const s of steps) {
    const at = s.at ?? lastAt;
    lastAt = at;
    if (!('session' in s)) {
      out.push({ kind: s.kind, at, by: s.by, via: s.via, detail: s.detail });
      continue;
    }
    const session = s.session;
    const add = (row: StepRow) => (run.get(session) ?? open(session, at)).rows.push(row);
    if (s.kind === 'turn') {
      turns.set(session, (turns.get(session) ?? 0) + 1);
      run.delete(session);
    } else if (s.kind === 'model') {
      if (s.calls.length) chose.set(session, s);
      else if (s.text) add({ at, kind: 'model', text: s.text, model: modelOf(s) });
    } else if (s.kind === 'tool') {
      const model = chose.get(session);
      chose.delete(session);
      const alone = standAlone(s, at, pr);
      if (alone === null) continue;
      if (alone) {
        out.push(alone);
        run.delete(session);
      } else add(toolRow(s, at, model));
    } else if (s.kind === 'end') {
      // A turn that ended by answering is the usual; a stop, a budget or a failure is marked.
      if (s.outcome !== 'ended') {
        const r = run.get(session) ?? open(session, at);
        r.outcome = s.outcome;
        r.detail = s.detail;
      }
      run.delete(session);
    } else add({ at, kind: s.kind, ...(s.kind === 'note' ? { name: s.note, text: s.text } : {}) });
  }
  return out;
}

/** The calls that change the ticket's PR, each an event of its own on the timeline. */
const PR_EVENTS: Record<string, 'opened' | 'ready' | 'closed'> = {
  open_pr: 'opened',
  mark_pr_ready: 'ready',
  close_pr: 'closed',
};

/** A call shown as its own item, null for one left to another record, undefined for a step row. */
function standAlone(s: Tool, at: number, pr: TimelineParts['pr']): TimelineItem | null | undefined {
  if (!s.ok) return undefined;
  if (s.message)
    return {
      kind: 'bot',
      at,
      purpose: /^to \S* \((\w+)\)/.exec(s.args.head)?.[1] ?? 'ack',
      text: s.message.text.slice(0, TEXT_CAP),
      to: s.message.to,
      session: s.session,
      sent: s.sent ?? null,
      outboxKey: s.message.outboxKey,
    };
  if (s.name === 'report') return null;
  if (s.name === 'commit_and_push')
    return { kind: 'commit', at, message: s.args.head, session: s.session, result: s.result.head };
  const event = PR_EVENTS[s.name];
  if (event) return { kind: 'pr', at, event, title: event === 'opened' ? s.args.head : '', pr };
  return undefined;
}

function toolRow(s: Tool, at: number, model: Model | undefined): StepRow {
  return {
    at,
    kind: 'tool',
    name: s.name,
    ok: s.ok,
    args: s.args.head,
    ms: s.ms,
    exitCode: s.exitCode,
    files: s.files,
    edit: s.edit,
    result: s.result,
    callKey: s.callKey,
    ...(model ? { model: modelOf(model) } : {}),
  };
}

function modelOf(m: Model): NonNullable<StepRow['model']> {
  const u = m.usage;
  return {
    name: m.model,
    ms: m.ms,
    tokens: u ? u.promptTokens + u.completionTokens : 0,
    revision: m.revision,
  };
}
