import { type FakeReply, type RecordedMessage, type RecordedRequest, text, toolCalls } from './fake-llm.ts';

/** Which session sent a request: the main session is the one offered `orchestrator_route`. */
export const roleOf = (req: RecordedRequest): 'main' | 'executor' =>
  req.tools.some((t) => t.function.name === 'orchestrator_route') ? 'main' : 'executor';

/** A note the host added inside a turn (issue 28: an answer cut short, work left unreported). */
export const isHostNote = (m: RecordedMessage | undefined): boolean =>
  m?.role === 'user' && (m.content ?? '').startsWith('[host]');

/**
 * Whether a request goes on with a turn already started — after tool results, or after a host
 * note (issue 28) — rather than opening one with new input.
 */
export const continues = (req: RecordedRequest): boolean => {
  const last = req.messages.at(-1);
  return last?.role === 'tool' || isHostNote(last);
};

/** The turn's input: the newest user message that is not a host note. */
export const inputOf = (req: RecordedRequest): string =>
  req.messages.findLast((m) => m.role === 'user' && !isHostNote(m))?.content ?? '';

/** The card ids in the newest user message that is not a host note (the turn's input). */
export function cardsIn(req: RecordedRequest): string[] {
  const user = [...req.messages].reverse().find((m) => m.role === 'user' && !isHostNote(m));
  return [...(user?.content ?? '').matchAll(/<card id="([^"]+)"/g)].map((m) => m[1] as string);
}

/** The tool results since the last assistant message, as the model read them. */
export function lastToolResults(req: RecordedRequest): string[] {
  const out: string[] = [];
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m?.role !== 'tool') break;
    out.unshift(m.content ?? '');
  }
  return out;
}

export type Step = (req: RecordedRequest) => FakeReply;

/**
 * A model per session kind: each turn's first request gets `onInput`, and any later request of
 * the turn (after tool results) ends the turn with a short text, unless `onResults` says more.
 */
export function scriptedModel(script: {
  main?: Step;
  executor?: Step;
  onResults?: (req: RecordedRequest, role: 'main' | 'executor') => FakeReply | undefined;
}) {
  return (req: RecordedRequest): FakeReply => {
    const role = roleOf(req);
    if (continues(req)) return script.onResults?.(req, role) ?? text('Done.');
    const step = script[role];
    return step ? step(req) : text('Nothing to do.');
  };
}

/** The main session opening a ticket for every candidate of its turn. */
export const openAll: Step = (req) =>
  toolCalls(['orchestrator_route', { decisions: cardsIn(req).map((card) => ({ card, action: 'open' })) }]);

/** An executor acknowledging every card of its turn. */
export const ackAll: Step = (req) => {
  const cards = cardsIn(req);
  return cards.length
    ? toolCalls(...cards.map((to) => ['reply', { to, text: `On it: ${to}.` }] as [string, unknown]))
    : text('Nothing new.');
};

/**
 * The ticket an executor request works on, from its turn input (`Ticket T3: …`): a script answers
 * for the ticket it is shown instead of assuming `T1` (issue 20).
 */
export function ticketOf(req: RecordedRequest): string | undefined {
  const first = req.messages.find((m) => m.role === 'user')?.content ?? '';
  return /^Ticket (T\d+):/.exec(first)?.[1];
}
