import { afterEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * Issue 48 item 1: after every edit and write the executor hears of the syntax errors its change
 * brought in, with their lines — JavaScript (node --check in the sandbox), TypeScript, Go (gofmt
 * -e in the sandbox) and YAML besides JSON and Python — and of none the file already had.
 */

const FILES = {
  'src/math.js': 'export function sub(a, b) {\n  return a - b;\n}\n',
  'src/calc.ts': 'export const sub = (a: number, b: number): number => {\n  return a - b;\n};\n',
  'src/old.ts': 'export const one = 1;\nexport const two = (;\n',
  'main.go': 'package main\n\nfunc sub(a, b int) int {\n\treturn a - b\n}\n',
  'deploy/app.yml': 'name: web\nports:\n  - 80\n',
};
const BROKEN = (rel: string, said: string) =>
  `syntax check: the change broke ${rel} — ${said}. Fix it before you go on.`;

describe('issue 48: diagnostics after every edit and write', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('issue 48: a broken JS, TS, Go or YAML change is answered with its error and line; an error the file already had is not news', async () => {
    w = await startWorld({}, { files: FILES });
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on it, ${card}.` }]),
      () => toolCalls(...Object.keys(FILES).map((path): [string, unknown] => ['read_file', { path }])),
      () =>
        toolCalls(
          ['edit_file', { path: 'src/math.js', old: 'return a - b;', new: 'return (a + b;' }],
          ['edit_file', { path: 'src/calc.ts', old: 'return a - b;', new: 'return (a + b;' }],
          ['edit_file', { path: 'src/old.ts', old: 'one = 1', new: 'one = 2' }],
          ['edit_file', { path: 'main.go', old: 'return a - b', new: 'return (a + b' }],
          ['write_file', { path: 'deploy/app.yml', content: 'name: web\nports: [80\n' }],
          ['write_file', { path: 'src/fine.js', content: 'module.exports = 1;\n' }],
        ),
    ]);
    await send(w.app.ctx, localMessage('Please make sub add in the web app'));
    await flow.done();
    const [js, ts, old, go, yaml, fine] = (flow.results[2] ?? []).map((r) => r.split('\n').at(-1));
    expect(js).toBe(BROKEN('src/math.js', "line 2: SyntaxError: Unexpected token ';'"));
    expect(ts).toBe(BROKEN('src/calc.ts', "line 2: ')' expected."));
    expect(old).toBe('     2\texport const two = (;');
    expect(go).toBe(BROKEN('main.go', "line 4: expected ')', found newline"));
    expect(yaml).toBe(
      BROKEN(
        'deploy/app.yml',
        'line 3: Flow sequence in block collection must be sufficiently indented and end with a ]',
      ),
    );
    expect(fine).toBe('wrote src/fine.js (20 bytes, a new file)');
  }, 60_000);

  it('issue 48: a checkout with its own TypeScript has its files parsed by it, in the sandbox, in the same words', async () => {
    // A stand-in compiler: it finds one error on the line that holds "(a + b;", as TypeScript words it.
    const compiler = `exports.transpileModule = (text, o) => {
  const at = text.indexOf('(a + b;');
  const file = { getLineAndCharacterOfPosition: (p) => ({ line: text.slice(0, p).split('\\n').length - 1 }) };
  return { diagnostics: at < 0 ? [] : [{ file, start: at, messageText: "')' expected (own compiler, " + o.fileName.split('.').pop() + ')' }] };
};
exports.flattenDiagnosticMessageText = (m) => m;
`;
    w = await startWorld(
      {},
      {
        files: {
          'src/calc.ts': FILES['src/calc.ts'],
          'node_modules/typescript/package.json': '{"name":"typescript","main":"index.js"}\n',
          'node_modules/typescript/index.js': compiler,
        },
      },
    );
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on it, ${card}.` }]),
      () => toolCalls(['read_file', { path: 'src/calc.ts' }]),
      () => toolCalls(['edit_file', { path: 'src/calc.ts', old: 'return a - b;', new: 'return (a + b;' }]),
    ]);
    await send(w.app.ctx, localMessage('Please make sub add in the web app'));
    await flow.done();
    expect(flow.results[2]?.[0]?.split('\n').at(-1)).toBe(
      BROKEN('src/calc.ts', "line 2: ')' expected (own compiler, ts)"),
    );
  }, 60_000);
});
