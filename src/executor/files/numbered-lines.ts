/** A line longer than this is cut in `read_file` and edit snippets (a minified bundle is one line). */
export const LINE_CHARS = 2000;

/**
 * A file's lines without their ends: `\n` or `\r\n`, no empty last line for a final newline
 * (a file of "a\nb\n" has two lines, as `wc -l` and editors count them).
 */
export function fileLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** One line as `cat -n` shows it (`   120\t…`), cut past `LINE_CHARS` with a marker saying how much. */
export function numberedLine(n: number, line: string): string {
  const shown =
    line.length > LINE_CHARS
      ? `${line.slice(0, LINE_CHARS)} [… line cut: ${line.length - LINE_CHARS} more characters]`
      : line;
  return `${String(n).padStart(6)}\t${shown}`;
}

/** Lines `from`..`to` (1-based, inclusive) of `lines`, numbered, one a row. */
export function numberedRange(lines: readonly string[], from: number, to: number): string {
  const rows: string[] = [];
  for (let n = Math.max(1, from); n <= Math.min(to, lines.length); n++)
    rows.push(numberedLine(n, lines[n - 1] ?? ''));
  return rows.join('\n');
}

/** "line 4" or "lines 4–9" (1-based, inclusive). */
export const lineSpan = (first: number, last: number): string =>
  first === last ? `line ${first}` : `lines ${first}–${last}`;

/**
 * The read_file line-number prefix (`   120\t`, or `120→` as other tools print it): a model that
 * copies it into `edit_file`'s `old` is told to drop it.
 */
export const NUMBER_PREFIX = /^ *\d+(\t|→)/;
