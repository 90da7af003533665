import { passageLines } from './find-passage.ts';

/** The edited text, and where each change landed in it (1-based first line, line count). */
export interface Applied {
  text: string;
  changes: { line: number; count: number }[];
}

const linesIn = (s: string) => s.split('\n').length;
const lead = (l: string) => /^[ \t]*/.exec(l)?.[0] ?? '';

/** Replaces every occurrence at the offsets `at` (from `exactOccurrences`) of `old` with `neu`. */
export function applyExact(text: string, old: string, neu: string, at: readonly number[]): Applied {
  const parts: string[] = [];
  const changes: Applied['changes'] = [];
  let from = 0;
  let line = 1;
  for (const i of at) {
    const before = text.slice(from, i);
    parts.push(before, neu);
    line += linesIn(before) - 1;
    changes.push({ line, count: linesIn(neu) });
    line += linesIn(neu) - 1;
    from = i + old.length;
  }
  parts.push(text.slice(from));
  return { text: parts.join(''), changes };
}

/**
 * Replaces the whole lines `first`..`first + span - 1` (0-based) that matched `old` tolerantly
 * with `neu`, re-indented by the indentation the file's lines have and `old`'s lacked (Aider does
 * the same), keeping the file's line ends.
 */
export function applyLines(text: string, first: number, span: number, old: string, neu: string): Applied {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const begin = starts[first] ?? text.length;
  const lastStart = starts[first + span - 1] ?? begin;
  const nl = text.indexOf('\n', lastStart);
  const lineEnd = nl === -1 ? text.length : nl;
  const crlf = text[lineEnd - 1] === '\r' && nl !== -1;
  const end = crlf ? lineEnd - 1 : lineEnd;
  const fileSpan = text.slice(begin, end).split(/\r?\n/);
  let body = reindent(fileSpan, passageLines(old), old.endsWith('\n') ? neu.replace(/\n$/, '') : neu);
  // Deleting whole lines takes their line end too.
  const to = body === '' && old.endsWith('\n') && nl !== -1 ? nl + 1 : end;
  if (crlf) body = body.replace(/\r?\n/g, '\r\n');
  const line = first + 1;
  return { text: text.slice(0, begin) + body + text.slice(to), changes: [{ line, count: linesIn(body) }] };
}

/** `neu` shifted by the indentation difference between the file's lines and `old`'s, when it is one. */
function reindent(fileSpan: readonly string[], oldLines: readonly string[], neu: string): string {
  const pairs = oldLines
    .map((o, k) => [lead(fileSpan[k] ?? ''), lead(o), o.trim()] as const)
    .filter(([, , t]) => t !== '');
  const first = pairs.find(([f, o]) => f !== o);
  if (!first) return neu;
  const [f0, o0] = first;
  if (f0.length > o0.length && f0.endsWith(o0)) {
    const add = f0.slice(0, f0.length - o0.length);
    if (!pairs.every(([f, o]) => f === add + o)) return neu;
    return neu
      .split('\n')
      .map((l) => (l.trim() ? add + l : l))
      .join('\n');
  }
  if (o0.length > f0.length && o0.endsWith(f0)) {
    const drop = o0.slice(0, o0.length - f0.length);
    if (!pairs.every(([f, o]) => o === drop + f)) return neu;
    return neu
      .split('\n')
      .map((l) => (l.startsWith(drop) ? l.slice(drop.length) : l))
      .join('\n');
  }
  return neu;
}
