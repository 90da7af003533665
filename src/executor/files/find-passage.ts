/**
 * Where `old` sits in a file (issue 28, `edit_file`): exact occurrences first; failing those, whole
 * lines matched ever more tolerantly — trailing whitespace, then leading and trailing whitespace,
 * then Unicode punctuation and spaces as ASCII (the ladder Codex's patch tool climbs). A model
 * that retyped a passage with other indentation or quotes still hits it, and is told so.
 */
export type Found =
  | { kind: 'exact'; at: number[] }
  | { kind: 'tolerant'; how: string; lines: number[]; span: number }
  | { kind: 'none' };

type Level = { how: string; norm: (line: string) => string };

const PUNCT: [RegExp, string][] = [
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/[\u2018\u2019\u201A\u201B]/g, "'"],
  [/[\u201C\u201D\u201E\u201F]/g, '"'],
  [/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, ' '],
  [/\u2026/g, '...'],
];
const asciiPunct = (s: string) => PUNCT.reduce((t, [re, to]) => t.replace(re, to), s);

export const LEVELS: Level[] = [
  { how: 'ignoring trailing whitespace', norm: (l) => l.trimEnd() },
  { how: 'ignoring indentation and trailing whitespace', norm: (l) => l.trim() },
  { how: 'ignoring whitespace and Unicode punctuation', norm: (l) => asciiPunct(l).trim() },
];

/**
 * The most line comparisons one tolerant level may make (file lines × `old`'s lines): a run of
 * identical lines makes each candidate compare all of `old`, and a 16 MiB file with a long `old`
 * would hold the worker for minutes. Past it only the exact search runs.
 */
export const LINE_WORK = 4_000_000;

/** Character offsets of each non-overlapping occurrence of `old` in `text`. */
export function exactOccurrences(text: string, old: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(old); i !== -1; i = text.indexOf(old, i + old.length)) at.push(i);
  return at;
}

/** `old` as lines to match whole: a final newline ends its last line, it adds no empty one. */
export const passageLines = (old: string): string[] =>
  (old.endsWith('\n') ? old.slice(0, -1) : old).split('\n').map((l) => l.replace(/\r$/, ''));

/** The 0-based first lines of every run of `lines` that equals `want` under `norm`. */
function lineMatches(lines: readonly string[], want: readonly string[], norm: Level['norm']): number[] {
  const file = lines.map(norm);
  const w = want.map(norm);
  const out: number[] = [];
  for (let i = 0; i + w.length <= file.length; i++) if (w.every((l, k) => file[i + k] === l)) out.push(i);
  return out;
}

/** Finds `old` in `text` (whose lines are `lines`), exactly or on the first tolerant level that hits. */
export function findPassage(text: string, lines: readonly string[], old: string): Found {
  const at = exactOccurrences(text, old);
  if (at.length) return { kind: 'exact', at };
  const want = passageLines(old);
  if (lines.length * want.length > LINE_WORK) return { kind: 'none' };
  for (const level of LEVELS) {
    const hits = lineMatches(lines, want, level.norm);
    if (hits.length) return { kind: 'tolerant', how: level.how, lines: hits, span: want.length };
  }
  return { kind: 'none' };
}
