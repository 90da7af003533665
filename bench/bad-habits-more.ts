import type { FakeReply, RecordedRequest } from '../test/kit/fake-llm.ts';
import { ack, anyResult, called, report, results, type Scenario, text, toolCalls } from './bad-habits-kit.ts';

/**
 * Issue 28's remaining bad-habit scenarios for `bench/bad-habits.ts`: a rewrite from memory, a
 * second `reply` without `purpose`, budget exhaustion, a stalled stream and a model outage. Runs
 * at the commit before issue 28 too (copied into its worktree), so it only uses kit functions that
 * commit has.
 */

const LOGIN = 'export const next = (u: string) => u;\nexport const home = "/home";\n';
/** What the model remembers of `src/login.ts`: its one line, changed; `home` forgotten. */
const MEMORY = 'export const next = (u: string) => u || "/";\n';

/** The file as `read_file` showed it: today's numbered lines and footer, or the old bare text. */
const shown = (result: string) =>
  /^\s*\d+\t/.test(result)
    ? `${result
        .split('\n')
        .filter((l) => /^\s*\d+\t/.test(l))
        .map((l) => l.replace(/^\s*\d+\t/, ''))
        .join('\n')}\n`
    : result;

/** The content of the last `write_file` of `path` the tool accepted, in the turn's last request. */
function acceptedWrite(rs: RecordedRequest[], path: string): string | undefined {
  const msgs = rs.at(-1)?.messages ?? [];
  let content: string | undefined;
  for (const m of msgs) {
    for (const c of m.tool_calls ?? []) {
      if (c.function.name !== 'write_file') continue;
      const args = JSON.parse(c.function.arguments) as { path?: string; content?: string };
      const answer = msgs.find((r) => r.role === 'tool' && r.tool_call_id === c.id)?.content ?? '';
      if (args.path === path && answer.startsWith('wrote')) content = args.content;
    }
  }
  return content;
}

/** `done` is refused without a verification at the pushed HEAD: the habit models run one. */
const verify = (command: string) => toolCalls(['record_verification', { command }]);

const queuedReplies = (rs: RecordedRequest[]) =>
  Math.max(
    0,
    ...rs.map(
      (r) => r.messages.filter((m) => m.role === 'tool' && /^reply queued/.test(m.content ?? '')).length,
    ),
  );

const MODULES = 45;
const moduleName = (i: number) => `src/m/m${String(i).padStart(2, '0')}.ts`;
let audited = 0;
let toldWorking = false;

let stalled = false;

/** DeepSeek's 503 in an outage (its error codes page), with `Retry-After: 1`. */
const overloaded: FakeReply = {
  type: 'error',
  status: 503,
  message:
    'Server Overloaded: The server is overloaded due to high traffic. Please retry your request after a brief wait.',
  retryAfterSeconds: 1,
};
/** The outage, scaled as `test/integration/executor/model-outage.test.ts` scales "30 s". */
export const OUTAGE_MS = 4_500;
let outageFrom = 0;

export const MORE_SCENARIOS: Scenario[] = [
  {
    // The model writes a file it has not read in this session — what it has after a compaction
    // elided its read — and so drops the line it forgot.
    name: 'rewrites a file from memory',
    goal: 'the rest of the file kept',
    files: { 'src/login.ts': LOGIN },
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      const last = results(req);
      if (n === 1) return toolCalls(['write_file', { path: 'src/login.ts', content: MEMORY }]);
      if (/read_file it/.test(last)) return toolCalls(['read_file', { path: 'src/login.ts' }]);
      if (/export const next/.test(last))
        return toolCalls([
          'write_file',
          { path: 'src/login.ts', content: shown(last).replace('=> u;', '=> u || "/";') },
        ]);
      if (/^wrote /m.test(last)) return toolCalls(['commit_and_push', { message: 'Fall back to /' }]);
      if (/pushed/.test(last)) return verify('grep -q "u || " src/login.ts');
      if (/^recorded at/m.test(last)) return report();
      return text('Done.');
    },
    reached: (rs) => (acceptedWrite(rs, 'src/login.ts') ?? '').includes('export const home'),
  },
  {
    // `reply({ to, text })` as the prompts wrote it, for the result after the acknowledgement.
    name: 'a second reply without purpose',
    goal: 'result delivered',
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      const last = results(req);
      const result = 'The login redirect already falls back to /.';
      if (n === 1) return toolCalls(['reply', { to: card, text: result }]);
      if (/Use purpose "result"/.test(last))
        return toolCalls(['reply', { to: card, text: result, purpose: 'result' }]);
      return report();
    },
    reached: (rs) => queuedReplies(rs) >= 2,
  },
  {
    // Reads 45 modules one by one, then writes its notes, pushes and reports; it heeds the budget
    // only when told (`report` working), and remembers where it was across turns.
    name: 'budget exhaustion',
    goal: 'done reported',
    files: Object.fromEntries(
      Array.from({ length: MODULES }, (_, i) => [moduleName(i + 1), `export const m${i + 1} = ${i + 1};\n`]),
    ),
    reset() {
      audited = 0;
      toldWorking = false;
    },
    model(req, n, card) {
      if (n === 0) return ack(card);
      const last = results(req);
      if (/^recorded done/m.test(last)) return text('Done.');
      if (/commit what works/.test(last) && !toldWorking) {
        toldWorking = true;
        return toolCalls([
          'report',
          { status: 'working', summary: `Audited ${audited} of ${MODULES} modules; going on.` },
        ]);
      }
      if (audited < MODULES) return toolCalls(['read_file', { path: moduleName(++audited) }]);
      if (/^recorded at/m.test(last)) return report();
      if (/pushed/.test(last)) return verify('grep -q "Audited 45" AUDIT.md');
      if (/^wrote /m.test(last)) return toolCalls(['commit_and_push', { message: 'Audit notes' }]);
      if (called(req, 'write_file')) return text('Done.');
      return toolCalls(['write_file', { path: 'AUDIT.md', content: `Audited ${MODULES} modules.\n` }]);
    },
    reached: (rs) => anyResult(rs, /^recorded done/m),
  },
  {
    // The provider stalls once, after three events of an answer, the connection held open.
    name: 'a stalled stream',
    goal: 'done reported',
    env: { LLM_STREAM_IDLE_MS: '2000' },
    bodyTimeoutMs: 10_000,
    reset() {
      stalled = false;
    },
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      if (called(req, 'read_file')) return report();
      const read = toolCalls(['read_file', { path: 'src/login.ts' }]);
      if (stalled) return read;
      stalled = true;
      return { ...read, stallAfterEvents: 3 };
    },
    reached: (rs) => anyResult(rs, /^recorded done/m),
  },
  {
    // After the acknowledgement the provider answers 503 (Retry-After: 1) for OUTAGE_MS.
    name: 'a model outage of 30 s',
    goal: 'done reported',
    env: { LLM_RETRY_BASE_MS: '200', LLM_RETRY_MAX_MS: '1500', LLM_RETRY_TOTAL_MS: '6000' },
    reset() {
      outageFrom = 0;
    },
    model(req, n, card) {
      if (n === 0) return ack(card);
      outageFrom ||= Date.now();
      if (Date.now() - outageFrom < OUTAGE_MS) return overloaded;
      if (called(req, 'report')) return text('Done.');
      return report();
    },
    reached: (rs) => anyResult(rs, /^recorded done/m),
  },
];
