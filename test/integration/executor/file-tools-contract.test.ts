import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * Issue 28: the model-facing answers of the five file tools on adversarial inputs, through the
 * real product (a scripted model, the sandbox, Redis). Every answer is asserted whole.
 */

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);
const row = (n: number, text: string) => `${String(n).padStart(6)}\t${text}`;
const rows = (from: number, to: number, text: (n: number) => string) =>
  Array.from({ length: to - from + 1 }, (_, i) => row(from + i, text(from + i))).join('\n');

const LONG = Array.from({ length: 5000 }, (_, i) => `row ${i + 1}`).join('\n');
const MINIFIED = `var a=${'1+'.repeat(25_000)}1;`;

describe('issue 28: the file tools answer like a coding agent’s', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('issue 28: read_file pages a 5,000-line file, caps limit, cuts a minified line and refuses a PNG with its size and kind', async () => {
    w = await startWorld({}, { files: { 'data/long.txt': `${LONG}\n`, 'dist/app.min.js': MINIFIED } });
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls(
          ['read_file', { path: 'data/long.txt' }],
          ['read_file', { path: 'data/long.txt', offset: 4990, limit: 20 }],
          ['read_file', { path: 'data/long.txt', offset: 1, limit: 5000 }],
          ['read_file', { path: 'dist/app.min.js' }],
          ['read_file', { path: 'data/long.txt', offset: 6000 }],
        ),
      () =>
        toolCalls([
          'run_command',
          { command: "printf '\\211PNG\\r\\n\\032\\n' > logo.png && head -c 100 /dev/zero >> logo.png" },
        ]),
      () => toolCalls(['read_file', { path: 'logo.png' }]),
    ]);
    await send(w.app.ctx, localMessage('Please look at the data of the web app'));
    await flow.done();
    const [page, tail, capped, minified, past] = flow.results[1] ?? [];
    expect(page).toBe(`${rows(1, 500, (n) => `row ${n}`)}\n(lines 1–500 of 5000; offset=501 to continue)`);
    expect(tail).toBe(`${rows(4990, 5000, (n) => `row ${n}`)}\n(lines 4990–5000 of 5000)`);
    expect(capped).toBe(
      `${rows(1, 2000, (n) => `row ${n}`)}\n(lines 1–2000 of 5000; limit is at most 2000; offset=2001 to continue)`,
    );
    expect(minified).toBe(
      `${row(1, MINIFIED.slice(0, 2000))} [… line cut: 48008 more characters]\n(line 1 of 1)`,
    );
    expect(past).toBe('Error: offset 6000 is past the end: data/long.txt has 5000 lines');
    expect(flow.results[3]).toEqual([
      'Error: refused: logo.png is binary (PNG image, 108 bytes); read_file shows text only',
    ]);
  });

  it('issue 28: search_files speaks PCRE, says no matches, answers a bad pattern with git’s error, caps 10,000 matches with per-file counts; list_files takes glob and depth', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `item ${i + 1}`).join('\n');
    w = await startWorld(
      {},
      {
        files: {
          'src/nums.ts': 'const a = 42;\nconst b = "x";\nconst c = 7;\n',
          'data/many.txt': `${many}\n`,
          'data/few.txt': 'item 1\nitem 2\nITEM 3\n',
        },
      },
    );
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls(
          ['search_files', { pattern: '\\d+', path: 'src' }],
          ['search_files', { pattern: '(?:a|c) = \\d(?!\\d)' }],
          ['search_files', { pattern: 'no_such_thing_anywhere' }],
          ['search_files', { pattern: 'foo(' }],
          ['search_files', { pattern: '\\d', glob: '*.ts' }],
          ['search_files', { pattern: 'item 3$', ignore_case: true, files_only: true }],
          ['search_files', { pattern: 'item \\d+', path: 'data' }],
        ),
      () => toolCalls(['list_files', { depth: 1 }], ['list_files', { glob: '*.{ts,md}', path: 'src' }]),
    ]);
    await send(w.app.ctx, localMessage('Please look at the numbers of the web app'));
    await flow.done();
    const [digits, group, none, bad, globbed, names, capped] = flow.results[1] ?? [];
    expect(digits).toBe('src/nums.ts:1:const a = 42;\nsrc/nums.ts:3:const c = 7;');
    expect(group).toBe('src/nums.ts:3:const c = 7;');
    expect(none).toBe('no matches');
    expect(bad).toBe(
      "Error: invalid pattern: -e option, 'foo(': missing closing parenthesis — the pattern is a Perl-compatible regular expression: escape ( ) [ ] { } . * + ? | \\ with a backslash to match them literally",
    );
    expect(globbed).toBe('src/nums.ts:1:const a = 42;\nsrc/nums.ts:3:const c = 7;');
    expect(names).toBe('data/few.txt\ndata/many.txt');
    const shown = [
      'data/few.txt:1:item 1',
      'data/few.txt:2:item 2',
      ...Array.from({ length: 198 }, (_, i) => `data/many.txt:${i + 1}:item ${i + 1}`),
    ];
    expect(capped).toBe(
      `${shown.join('\n')}\n(showing 200 of 10002 matches in 2 files: narrow the pattern or path; matches per file:\n  data/many.txt: 10000\n  data/few.txt: 2)`,
    );
    expect(flow.results[2]).toEqual([
      'AGENTS.md\nREADME.md\ndata/ (2 files)\nsrc/ (2 files)\nweb/ (1 file)',
      'src/login.ts\nsrc/nums.ts',
    ]);
  });

  it('issue 28: edit_file — unread refused, zero/one/two/whitespace-only matches, a tolerant match said, line-number prefixes refused, replace_all, a broken JSON reported, a file changed by a command refused until read again', async () => {
    w = await startWorld(
      {},
      {
        files: {
          'src/dup.ts': 'let x = 1;\nlet y = 2;\nlet x = 1;\n',
          'src/k.ts': 'class K {\n    run() {\n        go();\n    }\n}\n',
          'src/conf.json': '{\n  "name": "web",\n  "port": 8080\n}\n',
          'src/app.py': 'def main():\n    return 1\n',
        },
      },
    );
    const read = (...paths: string[]) =>
      toolCalls(...paths.map((path): [string, unknown] => ['read_file', { path }]));
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls(
          ['edit_file', { path: 'src/dup.ts', old: 'let y = 2;', new: 'let y = 3;' }],
          ['write_file', { path: 'README.md', content: '# from memory\n' }],
        ),
      () => read('src/dup.ts', 'src/k.ts', 'src/conf.json', 'src/app.py'),
      () =>
        toolCalls(
          ['edit_file', { path: 'src/dup.ts', old: 'let x = 1;', new: 'let x = 3;' }],
          ['edit_file', { path: 'src/dup.ts', old: 'let z = 9;', new: 'let z = 8;' }],
          ['edit_file', { path: 'src/dup.ts', old: ' \n\t\n', new: 'x' }],
          ['edit_file', { path: 'src/dup.ts', old: '     1\tlet x = 1;\n     2\tlet y = 2;', new: 'x' }],
          ['edit_file', { path: 'src/dup.ts', old: 'let x = 1;', new: 'let x = 3;', replace_all: true }],
          ['edit_file', { path: 'src/dup.ts', old: 'let y = 2;', new: 'let y = 5;' }],
          [
            'edit_file',
            { path: 'src/k.ts', old: 'run() {\n    go();\n}', new: 'run() {\n    go();\n    stop();\n}' },
          ],
          ['edit_file', { path: 'src/conf.json', old: '"port": 8080', new: '"port": 8080,' }],
          ['edit_file', { path: 'src/app.py', old: 'return 1', new: 'return (1' }],
        ),
      () => toolCalls(['run_command', { command: 'sed -i s/5/6/ src/dup.ts' }]),
      () => toolCalls(['edit_file', { path: 'src/dup.ts', old: 'let y = 6;', new: 'let y = 7;' }]),
      () => read('src/dup.ts'),
      () => toolCalls(['edit_file', { path: 'src/dup.ts', old: 'let y = 6;', new: 'let y = 7;' }]),
    ]);
    await send(w.app.ctx, localMessage('Please tidy the web app'));
    await flow.done();
    expect(flow.results[1]).toEqual([
      'Error: refused: src/dup.ts exists and you have not read it in this session; read_file it first, then change it (edit_file for a passage)',
      'Error: refused: README.md exists and you have not read it in this session; read_file it first, then change it (edit_file for a passage)',
    ]);
    const [two, zero, blank, prefixed, all, one, tolerant, json, python] = flow.results[3] ?? [];
    expect(two).toBe(
      'Error: old occurs 2 times in src/dup.ts (lines 1, 3); add surrounding lines to old to make it unique, or pass replace_all: true to change every one',
    );
    expect(zero).toBe(
      `Error: old is not in src/dup.ts. The closest passage is line 1:\n${row(1, 'let x = 1;')}\n${row(2, 'let y = 2;')}\nCopy old exactly from the file's current text (without the line numbers), or read_file it again.`,
    );
    expect(blank).toBe(
      'Error: refused: old is only whitespace; include the lines around the place to change',
    );
    expect(prefixed).toBe(
      'Error: refused: every line of old starts with a read_file line number ("   12\\t"); drop those prefixes — old is the file\'s text only',
    );
    expect(all).toBe(
      `edited src/dup.ts: replaced 2 occurrences (lines 1, 3). The first now reads:\n${row(1, 'let x = 3;')}\n${row(2, 'let y = 2;')}\n${row(3, 'let x = 3;')}`,
    );
    expect(one).toBe(
      `edited src/dup.ts:\n${row(1, 'let x = 3;')}\n${row(2, 'let y = 5;')}\n${row(3, 'let x = 3;')}`,
    );
    expect(tolerant).toBe(
      [
        'edited src/k.ts: no exact match; old matched lines 2–4 ignoring indentation and trailing whitespace, and those lines were replaced. Now:',
        row(1, 'class K {'),
        row(2, '    run() {'),
        row(3, '        go();'),
        row(4, '        stop();'),
        row(5, '    }'),
        row(6, '}'),
      ].join('\n'),
    );
    expect(json).toBe(
      [
        'edited src/conf.json:',
        row(1, '{'),
        row(2, '  "name": "web",'),
        row(3, '  "port": 8080,'),
        row(4, '}'),
        'syntax check: the change broke src/conf.json — invalid JSON: Expected double-quoted property name (line 4, column 1). Fix it before you go on.',
      ].join('\n'),
    );
    const said = `edited src/app.py:\n${row(1, 'def main():')}\n${row(2, '    return (1')}`;
    // Python is parsed in the sandbox: only where this machine has it.
    expect(python).toBe(
      existsSync('/usr/bin/python3')
        ? `${said}\nsyntax check: the change broke src/app.py — line 2: '(' was never closed. Fix it before you go on.`
        : said,
    );
    expect(flow.results[5]).toEqual([
      'Error: refused: src/dup.ts changed since you last read or wrote it (a command may have rewritten it); read_file it again, then change it',
    ]);
    expect(flow.results[7]).toEqual([
      `edited src/dup.ts:\n${row(1, 'let x = 3;')}\n${row(2, 'let y = 7;')}\n${row(3, 'let x = 3;')}`,
    ]);
  });
});
