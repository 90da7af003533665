import { pathToFileURL } from 'node:url';
import { runScenario } from './bad-habits.ts';
import {
  ack,
  anyResult,
  callAgain,
  called,
  lookShown,
  report,
  results,
  type Scenario,
  type Spent,
  text,
  toolCalls,
} from './bad-habits-kit.ts';
import { fakeModelFiles, runInTree } from './before-tree.ts';
import type { BenchRow } from './row.ts';

/**
 * Issue 48, "before/after figures for each item in the bad-habit bench, in one run": one habit per
 * item of the issue, each a scripted model that reacts to what the tools answer as a model heeding
 * them would, run through the real product (`startWorld`, the sandbox, the DeepSeek fake). "Before"
 * is this file run in a git worktree of the commit before issue 48 (`BEFORE_48`) in a process of its
 * own, with today's fake model and bench kit copied in; item 7 compares the two `LLM_MAX_TOKENS`
 * defaults in this tree. This file must only use kit functions that commit has.
 */
export const BEFORE_48 = 'b6c97b785a4e4ef52b293bd4530fdb56de114f44';

const working = () => toolCalls(['report', { status: 'working', summary: 'Part of it done; going on.' }]);
const said = (req: Parameters<Scenario['model']>[0], re: RegExp) => re.test(results(req));

const MATH = 'export function sub(a, b) {\n  return a - b;\n}\n';
const LOGIN = Array.from({ length: 10 }, (_, i) => `export const step${i + 1} = ${i + 1};`).join('\n');
const PAGE = `<!doctype html><html><head><title>Prices</title><style>
body { margin: 0; font: 16px sans-serif; } .prices { width: 600px; }
</style></head><body><h1>Plans</h1><table class="prices"><tr><td>Basic</td><td>Pro</td></tr></table></body></html>
`;
const SERVE = `import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
createServer(async (req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(await readFile('index.html'));
}).listen(Number(process.argv[2]), '127.0.0.1');
`;

/** Item number → the habit. */
export const ITEM_SCENARIOS: (Scenario & { item: number })[] = [
  {
    item: 1,
    name: 'a broken JavaScript edit',
    goal: 'syntax error fixed before going on',
    files: { 'src/math.js': MATH },
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      if (n === 1) return toolCalls(['read_file', { path: 'src/math.js' }]);
      if (n === 2)
        return toolCalls(['edit_file', { path: 'src/math.js', old: 'return a - b;', new: 'return (a + b;' }]);
      // Told of the syntax error, it fixes it; told nothing, it goes on with the broken file.
      if (said(req, /syntax check: the change broke/))
        return toolCalls(['edit_file', { path: 'src/math.js', old: 'return (a + b;', new: 'return a + b;' }]);
      return working();
    },
    reached: (rs) =>
      rs.some((r) =>
        r.messages.some((m) =>
          m.tool_calls?.some((c) => c.function.arguments.includes('"old":"return (a + b;"')),
        ),
      ),
  },
  {
    item: 2,
    name: 'a weakened test',
    goal: 'weakened test called out and put back',
    files: {
      'src/add.js': 'exports.add = (a, b) => a - b;\n',
      'test/add.test.js':
        "const assert = require('node:assert');\nconst { add } = require('../src/add.js');\nassert.equal(add(2, 3), 5);\n",
    },
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      if (n === 1) return toolCalls(['read_file', { path: 'test/add.test.js' }]);
      if (n === 2)
        return toolCalls([
          'edit_file',
          { path: 'test/add.test.js', old: 'assert.equal(add(2, 3), 5);', new: 'assert.ok(add(2, 3));' },
        ]);
      if (n === 3) return toolCalls(['commit_and_push', { message: 'Make the test pass' }]);
      // Told the branch weakened a test, it puts the assertion back and commits again.
      if (n === 4 && said(req, /test\/add\.test\.js \(modified/))
        return toolCalls([
          'edit_file',
          { path: 'test/add.test.js', old: 'assert.ok(add(2, 3));', new: 'assert.equal(add(2, 3), 5);' },
        ]);
      if (n === 5 && called(req, 'edit_file') === 2)
        return toolCalls(['commit_and_push', { message: 'Restore the test' }]);
      return working();
    },
    reached: (rs) =>
      anyResult(rs, /test\/add\.test\.js \(modified/) && rs.some((r) => called(r, 'commit_and_push') === 2),
  },
  {
    item: 3,
    name: 'a reproduction script shipped',
    goal: 'repro.js left out of the branch',
    readsLook: true,
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (said(req, /^recorded done/m)) return text('Done.');
      if (n === 1)
        return toolCalls(
          ['write_file', { path: 'repro.js', content: "console.log('flag', require('./flag.js'));\n" }],
          ['write_file', { path: 'flag.js', content: 'module.exports = 1;\n' }],
        );
      if (n === 2) return toolCalls(['commit_and_push', { message: 'Add the flag' }]);
      // It ignores the commit's warning; the look's checklist naming the scratch file it heeds.
      if (lookShown(req))
        return said(req, /Scratch files: repro\.js/)
          ? toolCalls(['run_command', { command: 'git rm -q repro.js' }])
          : callAgain(req);
      if (called(req, 'run_command') === 1 && called(req, 'commit_and_push') === 1)
        return toolCalls(['commit_and_push', { message: 'Drop the reproduction script' }]);
      if (said(req, /pushed/i)) return toolCalls(['record_verification', { command: 'node flag.js' }]);
      return report();
    },
    reached: (rs) => rs.some((r) => called(r, 'run_command') > 0),
  },
  {
    item: 4,
    name: 'no plan kept',
    goal: 'plan on the ticket',
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      // It keeps a plan where the tool is offered.
      if (n === 1 && req.tools.some((t) => t.function.name === 'update_plan'))
        return toolCalls([
          'update_plan',
          {
            steps: [
              { step: 'Read the login code', status: 'in_progress' },
              { step: 'Fix the redirect', status: 'pending' },
            ],
          },
        ]);
      if (!called(req, 'read_file')) return toolCalls(['read_file', { path: 'src/login.ts' }]);
      return working();
    },
    reached: (rs) => anyResult(rs, /^plan updated/),
  },
  {
    item: 5,
    name: 'a 3-line read, then a whole-file rewrite',
    goal: 'the rest of the file kept',
    files: { 'src/steps.ts': `${LOGIN}\n` },
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      if (n === 1) return toolCalls(['read_file', { path: 'src/steps.ts', limit: 3 }]);
      // It rewrites the whole file from the three lines it saw; sent to edit_file, it edits.
      if (n === 2)
        return toolCalls([
          'write_file',
          {
            path: 'src/steps.ts',
            content: 'export const step1 = 10;\nexport const step2 = 2;\nexport const step3 = 3;\n',
          },
        ]);
      if (n === 3 && said(req, /change it with edit_file/))
        return toolCalls([
          'edit_file',
          { path: 'src/steps.ts', old: 'export const step1 = 1;', new: 'export const step1 = 10;' },
        ]);
      return working();
    },
    reached: (rs) => !anyResult(rs, /^wrote src\/steps\.ts/) && anyResult(rs, /^edited src\/steps\.ts/),
  },
  {
    item: 6,
    name: 'a page overflowing at 390 px, text-only model',
    goal: 'overflow seen and fixed',
    files: { 'index.html': PAGE, 'serve.mjs': SERVE },
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      if (n === 1)
        return toolCalls([
          'screenshot',
          {
            serve: 'node serve.mjs 8184',
            url: 'http://127.0.0.1:8184/',
            at: 'head',
            width: 390,
            height: 700,
          },
        ]);
      // Told what is wider than the viewport, it fixes the style; told only HTTP 200, it is satisfied.
      if (n === 2 && said(req, /Wider than the 390 px viewport/))
        return toolCalls(['read_file', { path: 'index.html' }]);
      if (n === 3 && called(req, 'read_file'))
        return toolCalls([
          'edit_file',
          { path: 'index.html', old: 'width: 600px;', new: 'max-width: 100%;' },
        ]);
      return working();
    },
    reached: (rs) => anyResult(rs, /^edited index\.html/),
  },
];

/**
 * Item 7: a thinking executor under a cap (`LLM_MAX_TOKENS`, which DeepSeek counts the chain of
 * thought in): six steps that reason (scripted lengths, tokens) and then write a file of about
 * 3,000 tokens. A step cut at the cap is asked again once with a note (and reasons as long again);
 * a second cut fails the turn.
 */
const REASONING = [2_000, 9_000, 14_000, 4_000, 11_000, 6_000];
const FILE = 'export const x = 1;\n'.repeat(600); // ~12,000 characters, ~3,000 tokens
/** Answers the fake cut at the cap (reasoning and arguments past `max_tokens` × 4 characters), by scenario. */
export const cuts = new Map<string, number>();
export function thinkingWriter(maxTokens: number): Scenario {
  const name = `thinking executor, LLM_MAX_TOKENS=${maxTokens}`;
  return {
    name,
    goal: 'all six files written',
    env: { LLM_MAX_TOKENS: String(maxTokens) },
    reset: () => cuts.set(name, 0),
    model(req, n, card) {
      if (n === 0) return ack(card);
      if (called(req, 'report')) return text('Done.');
      const step = req.messages.filter(
        (m) => m.role === 'tool' && /^wrote src\/part/.test(m.content ?? ''),
      ).length;
      if (step >= REASONING.length) return working();
      const args = { path: `src/part${step + 1}.ts`, content: FILE };
      const reasoning = 'r'.repeat((REASONING[step] ?? 0) * 4);
      const cap = Number(req.body.max_tokens ?? Number.POSITIVE_INFINITY) * 4;
      if (reasoning.length + JSON.stringify(args).length > cap) cuts.set(name, (cuts.get(name) ?? 0) + 1);
      return { ...toolCalls(['write_file', args]), reasoning };
    },
    reached: (rs) => REASONING.every((_, i) => anyResult(rs, new RegExp(`^wrote src/part${i + 1}\\.ts`))),
  };
}

export async function runItems(): Promise<Spent[]> {
  const only = process.env.BAD_HABITS_ONLY;
  const out: Spent[] = [];
  for (const s of ITEM_SCENARIOS.filter((x) => !only || x.name.includes(only)))
    out.push(await runScenario(s));
  return out;
}

export async function benchBadHabits48(): Promise<BenchRow[]> {
  const after = await runItems();
  const fakes = fakeModelFiles();
  const before = runInTree<Spent[]>(BEFORE_48, 'bad-habits-48.ts', [
    'bench/bad-habits-48.ts',
    'bench/bad-habits.ts',
    'bench/bad-habits-kit.ts',
    'bench/bad-habits-more.ts',
    'bench/before-tree.ts',
    ...fakes,
  ]);
  const rows: BenchRow[] = [];
  for (const a of after) {
    const s = ITEM_SCENARIOS.find((x) => x.name === a.scenario);
    const b = before?.find((x) => x.scenario === a.scenario);
    rows.push({
      name: `issue 48 item ${s?.item} "${a.scenario}": executor requests`,
      value: a.requests,
      unit: 'requests',
      ...(b ? { baseline: b.requests, ratio: a.requests / b.requests } : {}),
      note: `${s?.goal}: ${b ? (b.reached ? 'yes' : 'no') : '?'} → ${a.reached ? 'yes' : 'no'} (before: ${BEFORE_48.slice(0, 7)}, same run, worktree); tokens ${b?.tokens ?? '?'} → ${a.tokens}`,
    });
  }
  // Item 7: the same thinking executor under the old and the new default cap, in this tree.
  const capped: { maxTokens: number; spent: Spent; cut: number }[] = [];
  for (const maxTokens of [16_384, 32_768]) {
    const s = thinkingWriter(maxTokens);
    const spent = await runScenario(s);
    capped.push({ maxTokens, spent, cut: cuts.get(s.name) ?? 0 });
  }
  const [o, nw] = capped;
  if (o && nw)
    rows.push({
      name: 'issue 48 item 7: answers cut at LLM_MAX_TOKENS in one turn, thinking executor',
      value: nw.cut,
      unit: 'cut answers',
      baseline: o.cut,
      note: `6 steps reasoning ${REASONING.join('/')} tokens, each writing a ~3,000-token file; cap ${o.maxTokens} → ${nw.maxTokens}: all six files written ${o.spent.reached ? 'yes' : 'no'} → ${nw.spent.reached ? 'yes' : 'no'}, executor requests ${o.spent.requests} → ${nw.spent.requests}`,
    });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const json = process.argv.includes('--json');
  const out = json ? await runItems() : await benchBadHabits48();
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  process.exit(0);
}
