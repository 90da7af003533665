import { type FakeReply, type RecordedRequest, text, toolCalls } from '../test/kit/fake-llm.ts';

/**
 * What the bad-habit scenarios of `bench/bad-habits.ts` share. Runs at the commit before issue 28
 * too (copied into its worktree), so it must only use kit functions that commit has.
 */
export interface Scenario {
  name: string;
  /** What "done" is, for the note. */
  goal: string;
  files?: Record<string, string>;
  /** The product's settings for this scenario, on both sides (the old code ignores ones it lacks). */
  env?: Record<string, string>;
  /**
   * The HTTP client's body time-out (Node's fetch: 300 s by default) during the scenario, on both
   * sides: before issue 28 the only bound on a stream that stalls after its headers.
   */
  bodyTimeoutMs?: number;
  /** Called before each run: what the habit remembers across turns starts empty. */
  reset?(): void;
  /** The habit: the executor's answer to each of its requests (`n` counts them from 0). */
  model(req: RecordedRequest, n: number, card: string): FakeReply;
  /** Issue 48: the habit reads the look before delivery itself (otherwise it calls the tool again). */
  readsLook?: boolean;
  /** Whether the turn got where the habit wanted, read from the executor's requests. */
  reached(requests: RecordedRequest[]): boolean;
}

export interface Spent {
  scenario: string;
  requests: number;
  tokens: number;
  reached: boolean;
  /** Wall time from the message to the executor queue's settling. */
  ms?: number;
}

export const isHostNote = (m: RecordedRequest['messages'][number] | undefined) =>
  m?.role === 'user' && (m.content ?? '').startsWith('[host]');
/** The tool results since the model's last answer. */
export const results = (req: RecordedRequest) =>
  req.messages
    .slice(req.messages.findLastIndex((m) => m.role === 'assistant') + 1)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content ?? '')
    .join('\n');
export const called = (req: RecordedRequest, name: string) =>
  req.messages.filter((m) => m.tool_calls?.some((c) => c.function.name === name)).length;
export const anyResult = (rs: RecordedRequest[], re: RegExp) =>
  rs.some((r) => r.messages.some((m) => m.role === 'tool' && re.test(m.content ?? '')));
export const reported = (rs: RecordedRequest[]) => anyResult(rs, /^recorded (working|done|blocked)/m);
/**
 * Issue 48 item 3: the first `done` report (or `mark_pr_ready`) on a changed branch answers with a
 * look at the diff and records nothing; the next call goes on. The habit models call it again.
 */
export const lookShown = (req: RecordedRequest) => /Not yet: look at what you deliver/.test(results(req));
/** The tool the look asks to call again, as the model called it last. */
export function callAgain(req: RecordedRequest) {
  const last = req.messages.findLast((m) => m.role === 'assistant' && m.tool_calls?.length);
  const c = last?.tool_calls?.find(
    (t) => t.function.name === 'report' || t.function.name === 'mark_pr_ready',
  );
  return c
    ? toolCalls([c.function.name, JSON.parse(c.function.arguments || '{}') as Record<string, unknown>])
    : report();
}
export const ack = (card: string) => toolCalls(['reply', { to: card, text: `On it: ${card} in acme/web.` }]);
export const report = () => toolCalls(['report', { status: 'done', summary: 'Done; see the branch.' }]);
export { text, toolCalls };

/** Where Node's fetch keeps its dispatcher (undici's global-dispatcher symbol). */
const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
interface Dispatcher {
  constructor: new (o: { bodyTimeout: number }) => Dispatcher;
}
type Dispatchers = Record<symbol, Dispatcher | undefined>;

/**
 * Runs `fn` with Node's fetch (what the `openai` package calls) giving up on a response body
 * silent for `ms` (undici's `bodyTimeout`, 300 s by default), then puts the dispatcher back.
 */
export async function withBodyTimeout<T>(ms: number | undefined, fn: () => Promise<T>): Promise<T> {
  if (ms === undefined) return fn();
  const g = globalThis as unknown as Dispatchers;
  // The first fetch makes the default dispatcher; a refused connection is enough.
  await fetch('http://127.0.0.1:9/').catch(() => undefined);
  const previous = g[DISPATCHER];
  if (!previous) throw new Error('no fetch dispatcher to change');
  g[DISPATCHER] = new previous.constructor({ bodyTimeout: ms });
  try {
    return await fn();
  } finally {
    g[DISPATCHER] = previous;
  }
}
