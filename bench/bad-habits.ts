import { pathToFileURL } from 'node:url';
import { startWorld, type World } from '../test/integration/executor/harness.ts';
import { localMessage, send } from '../test/integration/routing/helpers.ts';
import type { RecordedRequest } from '../test/kit/fake-llm.ts';
import { cardsIn, openAll, roleOf } from '../test/kit/scripted-model.ts';
import {
  ack,
  anyResult,
  callAgain,
  called,
  isHostNote,
  lookShown,
  report,
  reported,
  results,
  type Scenario,
  type Spent,
  text,
  toolCalls,
  withBodyTimeout,
} from './bad-habits-kit.ts';
import { MORE_SCENARIOS } from './bad-habits-more.ts';
import { BEFORE_ISSUE_28, fakeModelFiles, runInTree } from './before-tree.ts';
import type { BenchRow } from './row.ts';

/**
 * Issue 28 `bench/`: the requests and tokens habits of other agents' models cost, before and after
 * the issue. Each scenario is a scripted model with one habit that reads the tools' answers and
 * reacts as such a model would (retries what failed, falls back to reading files one by one), run
 * through the real product (`startWorld`) against the DeepSeek fake, whose prompt tokens are
 * characters ÷ 4. "Before" is the same file run in a git worktree of the commit before issue 28
 * (`BEFORE`) with today's fake model copied in (the fake alone; the product is that commit's),
 * in the same run. This file must therefore only use kit functions that commit has.
 */
const BEFORE = BEFORE_ISSUE_28;

const SCENARIOS: Scenario[] = [
  {
    name: 'commits in the shell',
    goal: 'branch pushed',
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      if (n === 1)
        return toolCalls(['write_file', { path: 'src/flag.ts', content: 'export const flag = 1;\n' }]);
      if (n === 2)
        return toolCalls(['run_command', { command: 'git add -A && git commit -q -m "Add flag"' }]);
      const last = results(req);
      if (/pushed/i.test(last) || called(req, 'commit_and_push') >= 4) return report();
      // The habit: it committed, so push again (Claude Code, Codex and DSH commit in the shell).
      return toolCalls(['commit_and_push', { message: 'Add flag' }]);
    },
    reached: (rs) => anyResult(rs, /pushed/i),
  },
  {
    name: 'PCRE search',
    goal: 'the definition found',
    files: { 'src/version.ts': 'export const v2 = 2;\n' },
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      if (n === 1) return toolCalls(['search_files', { pattern: 'const v\\d+ =' }]);
      const all = req.messages.map((m) => m.content ?? '').join('\n');
      if (/src\/version\.ts:\d*:?.*v2|export const v2/.test(all)) return report();
      // No match: read the files one by one, as a model that trusts the search would not need to.
      const order = ['README.md', 'AGENTS.md', 'src/login.ts', 'web/style.css', 'src/version.ts'];
      return toolCalls(['read_file', { path: order[called(req, 'read_file')] ?? 'src/version.ts' }]);
    },
    reached: (rs) => anyResult(rs, /export const v2 = 2/),
  },
  {
    name: 'narrates and stops',
    goal: 'work reported',
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (isHostNote(req.messages.at(-1))) return report();
      if (called(req, 'report')) return text('Done.');
      if (n === 1) return toolCalls(['read_file', { path: 'src/login.ts' }]);
      return text("Next I'll run the tests.");
    },
    reached: reported,
  },
  {
    name: 'a tool call cut by finish_reason length',
    goal: 'file written',
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      if (called(req, 'write_file')) return report();
      if (isHostNote(req.messages.at(-1)))
        return toolCalls(['write_file', { path: 'src/big.ts', content: 'export const big = 1;\n' }]);
      // The whole file at once, cut at the output limit inside the call's arguments.
      const cut = `{"path":"src/big.ts","content":"${'export const x = 1;\\n'.repeat(200)}`;
      return { type: 'message', toolCalls: [{ name: 'write_file', arguments: cut }], finishReason: 'length' };
    },
    reached: (rs) => anyResult(rs, /src\/big\.ts/),
  },
];

const ALL = [...SCENARIOS, ...MORE_SCENARIOS];

/**
 * Runs every scenario against this checkout's product and returns what each spent;
 * `BAD_HABITS_ONLY` (a part of a scenario's name) runs only the matching ones, on both sides.
 */
export async function runScenarios(): Promise<Spent[]> {
  const only = process.env.BAD_HABITS_ONLY;
  const out: Spent[] = [];
  for (const s of ALL.filter((x) => !only || x.name.includes(only)))
    out.push(await withBodyTimeout(s.bodyTimeoutMs, () => runScenario(s)));
  return out;
}

export async function runScenario(s: Scenario): Promise<Spent> {
  s.reset?.();
  const w: World = await startWorld(s.env ?? {}, { files: s.files ?? {} });
  try {
    const seen: RecordedRequest[] = [];
    let card = '';
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      if (!seen.length) card = cardsIn(req)[0] ?? '';
      seen.push(req);
      // Issue 48: a look before delivery is answered by calling the same tool again.
      if (lookShown(req) && !s.readsLook) return callAgain(req);
      return s.model(req, seen.length - 1, card);
    });
    const t0 = Date.now();
    await send(w.app.ctx, localMessage('Please add the flag to acme/web'));
    const quiet = await settled(w);
    const ms = Date.now() - t0 - (quiet ? QUIET_MS : 0);
    const executor = w.llm.requests.filter((r) => roleOf(r) === 'executor');
    const tokens = executor.reduce(
      (n, r) => n + Number(r.usage?.prompt_tokens ?? 0) + Number(r.usage?.completion_tokens ?? 0),
      0,
    );
    const reached = quiet && s.reached(executor);
    return { scenario: s.name, requests: executor.length, tokens, reached, ms };
  } finally {
    await w.close();
  }
}

const QUIET_MS = 2000;

/**
 * The executor queue has finished at least one turn and has nothing left to run, for 2 s; false
 * when it has not within `timeoutMs` (the scenario did not get there).
 */
async function settled(w: World, timeoutMs = 180_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  let quietSince = 0;
  while (Date.now() < end) {
    const c = await w.app.ctx.queues.executor.getJobCounts(
      'active',
      'waiting',
      'delayed',
      'completed',
      'failed',
    );
    const idle = (c.active ?? 0) + (c.waiting ?? 0) + (c.delayed ?? 0) === 0;
    const done = (c.completed ?? 0) + (c.failed ?? 0) > 0;
    if (idle && done) {
      quietSince ||= Date.now();
      if (Date.now() - quietSince > QUIET_MS) return true;
    } else quietSince = 0;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const secs = (ms: number | undefined) => (ms === undefined ? '?' : `${(ms / 1000).toFixed(1)} s`);

export async function benchBadHabits(): Promise<BenchRow[]> {
  const after = await runScenarios();
  // The kit's fake model of today (the fake only) and this file, in the commit before issue 28.
  const fakes = fakeModelFiles();
  const before = runInTree<Spent[]>(BEFORE, 'bad-habits.ts', [
    'bench/bad-habits.ts',
    'bench/bad-habits-kit.ts',
    'bench/bad-habits-more.ts',
    'bench/before-tree.ts',
    ...fakes,
  ]);
  const rows: BenchRow[] = [];
  for (const a of after) {
    const b = before?.find((x) => x.scenario === a.scenario);
    const s = ALL.find((x) => x.name === a.scenario);
    const note = b
      ? `before ${BEFORE.slice(0, 7)} (same run, worktree): ${b.requests} requests, ${s?.goal}: ${b.reached ? 'yes' : 'no'}; after: ${s?.goal}: ${a.reached ? 'yes' : 'no'}`
      : `before: not measured (worktree of ${BEFORE.slice(0, 7)} not available); ${s?.goal}: ${a.reached ? 'yes' : 'no'}`;
    rows.push(
      {
        name: `bad habit "${a.scenario}": executor requests`,
        value: a.requests,
        unit: 'requests',
        ...(b ? { baseline: b.requests, ratio: a.requests / b.requests } : {}),
        note,
      },
      {
        name: `bad habit "${a.scenario}": tokens`,
        value: a.tokens,
        unit: 'tokens',
        ...(b ? { baseline: b.tokens, ratio: a.tokens / b.tokens } : {}),
        note: `prompt + completion tokens of the executor (the fake counts characters ÷ 4); wall time ${secs(b?.ms)} → ${secs(a.ms)}`,
      },
    );
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const json = process.argv.includes('--json');
  const out = json ? await runScenarios() : await benchBadHabits();
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  process.exit(0);
}
