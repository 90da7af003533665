/**
 * Where a request differs from a recorded one (issue 29, `--replay`): the differing fields in
 * document order — `body.messages[7].content`, `body.tools[2]` — each with a short excerpt of both
 * sides around the first character that differs, and the recorded request nearest to a new one.
 */

export interface FieldDifference {
  /** A path into the canonical request: `body.messages[3].content`. */
  path: string;
  recorded: string;
  now: string;
}

/** Up to `limit` differing fields of two JSON values, in document order. */
export function differences(recorded: unknown, now: unknown, limit = 20): FieldDifference[] {
  const out: FieldDifference[] = [];
  walk(recorded, now, '', out, limit);
  return out;
}

function walk(a: unknown, b: unknown, at: string, out: FieldDifference[], limit: number): void {
  if (out.length >= limit) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) {
        out.push({ path: `${at}[${i}]`, ...absent(i < a.length, a[i] ?? b[i]) });
        return;
      }
      walk(a[i], b[i], `${at}[${i}]`, out, limit);
    }
    return;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const path = at ? `${at}.${k}` : k;
      if (!(k in a) || !(k in b)) out.push({ path, ...absent(k in a, a[k] ?? b[k]) });
      else walk(a[k], b[k], path, out, limit);
      if (out.length >= limit) return;
    }
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path: at, ...excerpts(a, b) });
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function absent(inRecording: boolean, v: unknown): Pick<FieldDifference, 'recorded' | 'now'> {
  const shown = clip(JSON.stringify(v) ?? 'undefined', 0);
  return inRecording ? { recorded: shown, now: '(absent)' } : { recorded: '(absent)', now: shown };
}

/** Both values around the first character where they part, at most ~80 characters each. */
function excerpts(a: unknown, b: unknown): Pick<FieldDifference, 'recorded' | 'now'> {
  const x = typeof a === 'string' ? a : (JSON.stringify(a) ?? 'undefined');
  const y = typeof b === 'string' ? b : (JSON.stringify(b) ?? 'undefined');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return { recorded: clip(x, i), now: clip(y, i) };
}

function clip(s: string, at: number): string {
  const from = Math.max(0, at - 30);
  const to = Math.min(s.length, at + 50);
  return `${from > 0 ? '…' : ''}${s.slice(from, to)}${to < s.length ? '…' : ''}`;
}

/**
 * The candidate nearest to `now`: fewest differing fields, then the nearest in sending order to
 * `position`; undefined when there are none.
 */
export function nearest<T extends { n: number; canonical: unknown }>(
  candidates: readonly T[],
  now: unknown,
  position: number,
): { candidate: T; differences: FieldDifference[] } | undefined {
  let best: { candidate: T; differences: FieldDifference[]; score: number } | undefined;
  for (const c of candidates) {
    const diffs = differences(c.canonical, now, 200);
    const score = diffs.length * 10_000 + Math.abs(c.n - position);
    if (!best || score < best.score) best = { candidate: c, differences: diffs, score };
  }
  return best && { candidate: best.candidate, differences: best.differences };
}

/** One line naming the first differing field and both sides of it. */
export function describeDifference(d: FieldDifference | undefined): string {
  if (!d) return 'no field differs (the recording has fewer answers to this request than it was asked)';
  return `${d.path}: recorded ${JSON.stringify(d.recorded)}, now ${JSON.stringify(d.now)}`;
}
