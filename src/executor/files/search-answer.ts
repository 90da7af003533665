/** What one `search_files` answer carries at most (issue 28): matches, bytes, characters a line. */
export const SEARCH_MAX_MATCHES = 200;
export const SEARCH_MAX_BYTES = 20_000;
export const SEARCH_LINE_CHARS = 300;

/** Rows `file:line:text` from `git grep -n -z` output (`file\0line\0text`), lines cut. */
export function matchRows(stdout: string): string[] {
  const rows: string[] = [];
  for (const rec of stdout.split('\n')) {
    if (!rec) continue;
    const [file = '', line = '', ...rest] = rec.split('\0');
    const text = rest.join('\0');
    const cut =
      text.length > SEARCH_LINE_CHARS
        ? `${text.slice(0, SEARCH_LINE_CHARS)} [… ${text.length - SEARCH_LINE_CHARS} more characters]`
        : text;
    rows.push(`${file}:${line}:${cut}`);
  }
  return rows;
}

/** The first rows that fit the caps. */
export function capRows(rows: readonly string[]): string[] {
  const out: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    bytes += Buffer.byteLength(row) + 1;
    if (out.length >= SEARCH_MAX_MATCHES || bytes > SEARCH_MAX_BYTES) break;
    out.push(row);
  }
  return out;
}

/** Per-file counts from `git grep -c -z` (`file\0count`), most matches first, at most 30 named. */
export function countsSummary(stdout: string): { total: number; files: number; lines: string[] } {
  const counts = stdout
    .split('\n')
    .filter(Boolean)
    .map((rec) => {
      const [file = '', n = '0'] = rec.split('\0');
      return { file, n: Number(n) };
    })
    .sort((a, b) => b.n - a.n || a.file.localeCompare(b.file));
  const total = counts.reduce((s, c) => s + c.n, 0);
  const lines = counts.slice(0, 30).map((c) => `  ${c.file}: ${c.n}`);
  if (counts.length > 30) lines.push(`  … and ${counts.length - 30} more files`);
  return { total, files: counts.length, lines };
}
