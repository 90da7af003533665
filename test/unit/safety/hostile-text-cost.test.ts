import { describe, expect, it } from 'vitest';
import { reservedBlockProblems } from '../../../src/artifacts/reserved-blocks.ts';
import type { TriggerCard } from '../../../src/cards/card.ts';
import { extractTextRefs, MAX_REFS } from '../../../src/cards/extract-refs.ts';
import { truncateClean } from '../../../src/cards/truncate.ts';
import { messageText } from '../../../src/channels/feishu/message-text.ts';
import { mentionsBot } from '../../../src/channels/github/mentions.ts';
import { binaryKind } from '../../../src/executor/files/binary-kind.ts';
import { hasNumberPrefixes, noMatch } from '../../../src/executor/files/edit-answer.ts';
import { findPassage } from '../../../src/executor/files/find-passage.ts';
import { fileLines } from '../../../src/executor/files/numbered-lines.ts';
import { readPage } from '../../../src/executor/files/read-page.ts';
import { matchRows } from '../../../src/executor/files/search-answer.ts';
import { isAssertionLine, isTestFile } from '../../../src/executor/test-files.ts';
import { verificationProblem } from '../../../src/executor/verification-command.ts';
import { changedTestsRun } from '../../../src/executor/verified-head.ts';
import { namedRepos } from '../../../src/executor/workspace/repo-choice.ts';
import { languageOfText } from '../../../src/i18n/detect-language.ts';
import { commandOf } from '../../../src/router/command.ts';
import { languageCommandOf } from '../../../src/router/language-command.ts';
import { mayNameTicket } from '../../../src/router/may-name-ticket.ts';
import { countWords } from '../../../src/router/words.ts';
import { neutralizeMentions } from '../../../src/safety/neutralize-mentions.ts';
import { sanitizeUntrusted } from '../../../src/safety/sanitize-text.ts';
import { exitCodeOf } from '../../../src/session/trajectory/call-summary.ts';
import { excerpt } from '../../../src/session/trajectory/excerpt.ts';

const N = 65_000;

/**
 * Shapes that make backtracking regexes retry from every position: a long run of one character
 * class, after a prefix that starts a match, before a character that ends it in failure.
 */
function hostileShapes(): Record<string, string> {
  const runs = [
    ' ',
    '\t',
    '\n',
    ')',
    '.',
    '/',
    '#',
    'a',
    '1',
    '@',
    '-',
    '<!--',
    '\u200b',
    'http://a/',
    'a/',
    '# ',
    '\n ',
    '@a/',
    '<at ',
  ];
  const prefixes = ['', 'http://a/', 'a/', '# a', '@', 'a', '<!--', '<at user_id="all">'];
  const shapes: Record<string, string> = {};
  for (const pre of prefixes)
    for (const run of runs)
      for (const end of ['', '!x', '\n'])
        shapes[`${JSON.stringify(pre)} + ${JSON.stringify(run)}×n + ${JSON.stringify(end)}`] =
          pre + run.repeat(Math.floor(N / run.length)) + end;
  // Comments nested so that each taken out joins the next one's opener, through a tag character
  // that only forms once the comment inside it is gone: sanitizeUntrusted repeats its passes.
  const levels = Math.floor(N / 16);
  shapes['("<!" + tag half)×n + comment + (tag half + "-- x -->")×n'] =
    `${'<!\uDB40'.repeat(levels)}<!-- -->${'\uDC41-- x -->'.repeat(levels)}`;
  return shapes;
}

const asCard = (text: string) => ({ kind: 'message', text, refs: [] }) as unknown as TriggerCard;

/** Every function that reads external text (comments, messages, checkout files) with regexes. */
const readers: Record<string, (text: string) => unknown> = {
  extractTextRefs: (t) => extractTextRefs(t, 'o/r'),
  sanitizeUntrusted,
  countWords,
  mentionsBot: (t) => mentionsBot(t, 'bot'),
  reservedBlockProblems: (t) => reservedBlockProblems(t, 'f.md', 1),
  truncateClean: (t) => truncateClean(t, 4000),
  commandOf: (t) => commandOf(asCard(t)),
  languageCommandOf: (t) => languageCommandOf(asCard(t)),
  mayNameTicket: (t) => mayNameTicket({ text: t }),
  namedRepos: (t) => namedRepos(asCard(t)),
  languageOfText,
  exitCodeOf,
  excerpt,
  feishuMessageText: (t) => messageText('text', JSON.stringify({ text: t }), [], () => false),
  neutralizeMentions: (t) => neutralizeMentions(t),
  verificationProblem: (t) => verificationProblem(t),
  // Issue 28: the file tools read checkout files and the model's `old`, which a file can dictate.
  readPage: (t) => readPage('f', t, 1, 2000),
  binaryKind: (t) => binaryKind(Buffer.from(t)),
  matchRows,
  editMatch: (t) => {
    const old = `${t.slice(0, 4000)}zz`;
    const lines = fileLines(t);
    return [findPassage(t, lines, old), noMatch('f', lines, old), hasNumberPrefixes(t)];
  },
  // Issue 48: which files are tests, which lines of a diff assert, which changed tests a command ran.
  isTestFile,
  isAssertionLine,
  changedTestsRun: (t) => changedTestsRun(t, [{ path: 'test/a.test.js', kind: 'modified' }]),
};

/** Under the ~2 s the slowest old reader took on these shapes, far over what linear code takes. */
const BOUND_MS = 750;

describe('issue 14 "input costs nothing": regexes over external text run in linear time', () => {
  const shapes = hostileShapes();
  for (const [name, read] of Object.entries(readers)) {
    it(`${name}: no 65k-character hostile shape costs more than ${BOUND_MS} ms`, () => {
      // Before the fix: `http://a/` + 65,000 `)` + `x` took ~2 s in extractTextRefs, a long
      // space run ~3.7 s in commandOf and a long heading line ~3.7 s in reservedBlockProblems.
      // Linear code takes ~1 ms here. This catches super-linear blow-ups (seconds), not speed, which
      // bench/hostile-text.ts measures: the bound leaves room for a heavily loaded 2-core machine.
      const slow: string[] = [];
      for (const [shape, text] of Object.entries(shapes)) {
        const time = () => {
          const start = performance.now();
          read(text);
          return performance.now() - start;
        };
        // A slow shape is timed again: one GC pause or a busy neighbour is not a regression.
        const first = time();
        const ms = first > BOUND_MS ? Math.min(first, time()) : first;
        if (ms > BOUND_MS) slow.push(`${shape}: ${ms.toFixed(0)} ms`);
      }
      expect(slow).toEqual([]);
    });
  }

  it('a closing-punctuation run after a URL still ends the URL, as before', () => {
    expect(extractTextRefs('see https://github.com/o/r/pull/3).')).toEqual([
      { type: 'pr', repo: 'o/r', number: 3 },
    ]);
    expect(extractTextRefs(`http://a/${')'.repeat(N)}x`)).toEqual([{ type: 'url', url: 'http://a/' }]);
  });

  it('a text naming thousands of issues yields at most MAX_REFS references', () => {
    const refs = extractTextRefs(Array.from({ length: 3000 }, (_, i) => `#${i + 1}`).join(' '), 'o/r');
    expect(refs).toHaveLength(MAX_REFS);
  });

  it('commands survive the rewrite: trailing punctuation and mentions aside', () => {
    expect(commandOf(asCard('@bot /pause!! '))).toBe('pause');
    expect(commandOf(asCard('继续。'))).toBe('resume');
    expect(commandOf(asCard(`pause${' '.repeat(600)}`))).toBeUndefined();
  });

  it('reserved headings are still found, closing hashes and all', () => {
    expect(reservedBlockProblems('## Policy ##', 'f.md', 1)).toHaveLength(1);
    expect(reservedBlockProblems('  # Team: x', 'f.md', 1)).toHaveLength(1);
    expect(reservedBlockProblems('#Policy', 'f.md', 1)).toHaveLength(0);
    expect(reservedBlockProblems('# Policy#', 'f.md', 1)).toHaveLength(0);
  });
});
