import { describe, expect, it } from 'vitest';
import { applyExact, applyLines } from '../../../src/executor/files/apply-edit.ts';
import { binaryKind } from '../../../src/executor/files/binary-kind.ts';
import { closestPassage } from '../../../src/executor/files/closest-passage.ts';
import { hasNumberPrefixes, lineList } from '../../../src/executor/files/edit-answer.ts';
import { findPassage } from '../../../src/executor/files/find-passage.ts';
import { fileLines } from '../../../src/executor/files/numbered-lines.ts';
import { pathspecs } from '../../../src/executor/files/pathspecs.ts';
import { readPage } from '../../../src/executor/files/read-page.ts';
import { collapse } from '../../../src/executor/tools/list-files-tool.ts';
import type { ToolResult } from '../../../src/session/tool.ts';

const content = (r: ToolResult) => (r.ok ? r.content : `Error: ${r.error}`);

describe('issue 28: the text of the file tools', () => {
  it('issue 28: read_file pages number lines like cat -n and end with where to continue', () => {
    const text = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(content(readPage('a.txt', text, 11, 5))).toBe(
      '    11\tline 11\n    12\tline 12\n(lines 11–12 of 12)',
    );
    expect(content(readPage('a.txt', text, 2, 2))).toBe(
      '     2\tline 2\n     3\tline 3\n(lines 2–3 of 12; offset=4 to continue)',
    );
    expect(content(readPage('a.txt', text, 13))).toBe('Error: offset 13 is past the end: a.txt has 12 lines');
    expect(content(readPage('e.txt', ''))).toBe('(e.txt is empty: 0 lines)');
    expect(fileLines('a\r\nb\r\n')).toEqual(['a', 'b']);
  });

  it('issue 28: binary files are told apart by magic number or a NUL in the first 8 kB', () => {
    expect(binaryKind(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('PNG image');
    expect(binaryKind(Buffer.from('%PDF-1.7\n'))).toBe('PDF document');
    expect(binaryKind(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]))).toBe('ELF executable');
    expect(binaryKind(Buffer.from('PK\u0003\u0004rest'))).toBe('zip archive');
    expect(binaryKind(Buffer.from('text\0more'))).toBe('binary data');
    expect(binaryKind(Buffer.from('plain text, ünïcode'))).toBeUndefined();
  });

  it('issue 28: the edit ladder — exact, trailing whitespace, indentation, Unicode punctuation', () => {
    const text = 'def f():\n    say(\u201chi\u201d)  \n    return 1\n';
    const lines = fileLines(text);
    expect(findPassage(text, lines, 'return 1')).toEqual({ kind: 'exact', at: [text.indexOf('return 1')] });
    expect(findPassage(text, lines, '    say(\u201chi\u201d)\n')).toMatchObject({
      kind: 'tolerant',
      how: 'ignoring trailing whitespace',
      lines: [1],
    });
    expect(findPassage(text, lines, 'say(\u201chi\u201d)\nreturn 1')).toMatchObject({
      how: 'ignoring indentation and trailing whitespace',
      lines: [1],
      span: 2,
    });
    expect(findPassage(text, lines, 'say("hi")')).toMatchObject({
      how: 'ignoring whitespace and Unicode punctuation',
    });
    expect(findPassage(text, lines, 'nowhere')).toEqual({ kind: 'none' });
  });

  it('issue 28: a tolerant match replaces whole lines, re-indented as the file is, keeping CRLF', () => {
    const text = 'a\r\n    b\r\n    c\r\nd\r\n';
    const got = applyLines(text, 1, 2, 'b\nc\n', 'B\n  C\n');
    expect(got.text).toBe('a\r\n    B\r\n      C\r\nd\r\n');
    expect(got.changes).toEqual([{ line: 2, count: 2 }]);
    expect(applyLines('x\n  y\nz\n', 1, 1, 'y\n', '').text).toBe('x\nz\n');
    const all = applyExact('k=1\nk=1\nk=1\n', 'k=1', 'k=2', [0, 4, 8]);
    expect(all.text).toBe('k=2\nk=2\nk=2\n');
    expect(all.changes.map((c) => c.line)).toEqual([1, 2, 3]);
  });

  it('issue 28: the closest passage is found for a near miss, and nothing for noise', () => {
    const lines = ['function a() {', '  return compute(x, y);', '}', 'function b() {', '  return 2;', '}'];
    expect(closestPassage(lines, 'function b() {\n  return 3;\n}')).toEqual({ first: 3, span: 3 });
    expect(closestPassage(lines, 'zzzzqqqq')).toBeUndefined();
  });

  it('issue 28: an old that copied read_file line numbers is recognised', () => {
    expect(hasNumberPrefixes('    12\tconst a = 1;\n    13\tconst b = 2;\n')).toBe(true);
    expect(hasNumberPrefixes('12→const a = 1;')).toBe(true);
    expect(hasNumberPrefixes('const a = 1;\n    13\tconst b = 2;')).toBe(false);
    expect(lineList(Array.from({ length: 25 }, (_, i) => i + 1))).toBe(
      '1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 5 more',
    );
  });

  it('issue 28: globs become pathspecs under the folder; braces expand; escapes are refused', () => {
    expect(pathspecs('.', undefined)).toEqual({ ok: true, specs: ['.'] });
    expect(pathspecs('src', '*.{ts,tsx}')).toEqual({
      ok: true,
      specs: [':(glob)src/**/*.ts', ':(glob)src/**/*.tsx'],
    });
    expect(pathspecs('.', 'test/**/*.test.ts')).toEqual({ ok: true, specs: [':(glob)test/**/*.test.ts'] });
    expect(pathspecs('.', '../x')).toMatchObject({ ok: false });
    expect(pathspecs('.', ':(top)x')).toMatchObject({ ok: false });
  });

  it('issue 28: list_files depth collapses deeper folders into one entry with a count', () => {
    const files = ['README.md', 'src/a.ts', 'src/b/c.ts', 'src/b/d.ts', 'test/x.ts'];
    expect(collapse(files, '.', 1)).toEqual(['README.md', 'src/ (3 files)', 'test/ (1 file)']);
    expect(collapse(files.slice(1, 4), 'src', 1)).toEqual(['src/a.ts', 'src/b/ (2 files)']);
    expect(collapse(files, '.', undefined)).toEqual(files);
  });
});
