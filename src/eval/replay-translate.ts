/**
 * A recorded answer with this run's values where the recording run's stood (issue 29,
 * `--replay`): a model's answer names what it read — a card id, a commit, a path in the run's
 * folder — and those differ from run to run. Each name of the request's canonical form
 * (`request-key.ts`) bound to one value when recorded and another now is swapped, in the text of
 * the answer and, in a Chat Completions stream, across the deltas a value was split over (a
 * model streams an id in pieces): each delta keeps its place and the events that changed are
 * written anew. Chunk boundaries stay where they were, moved to the end of a swapped value when
 * they fell inside it. With nothing to swap, the recorded bytes go out as they were.
 */

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Recorded value → this run's value, for each name bound to different values; longest first. */
export function swapsOf(recorded: Record<string, string>, now: Record<string, string>): [string, string][] {
  return Object.entries(recorded)
    .flatMap(([name, was]): [string, string][] => {
      const is = now[name];
      return is !== undefined && is !== was ? [[was, is]] : [];
    })
    .sort((a, b) => b[0].length - a[0].length);
}

/** The chunks with the swaps made (text chunks; binary ones go out unchanged). */
export function translateChunks(chunks: string[], streamed: boolean, swaps: [string, string][]): string[] {
  if (!swaps.length) return chunks;
  const text = chunks.join('');
  const eventEdits = streamed ? streamEdits(text, swaps) : [];
  const inEvent = (e: Edit) => eventEdits.some((x) => e.start >= x.start && e.end <= x.end);
  const edits = [...eventEdits, ...occurrences(text, swaps).filter((e) => !inEvent(e))];
  const out = applyEdits(text, edits, ends(chunks).slice(0, -1));
  return splitAt(out.text, out.bounds);
}

/**
 * Every non-overlapping occurrence of a recorded value, leftmost and longest first, never part of
 * a longer word (`#3` is not in `#30`).
 */
function occurrences(text: string, swaps: [string, string][]): Edit[] {
  const to = new Map(swaps);
  const word = (v: string) => {
    const escaped = v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return `${/^\w/.test(v) ? '(?<!\\w)' : ''}${escaped}${/\w$/.test(v) ? '(?!\\w)' : ''}`;
  };
  const re = new RegExp(swaps.map(([was]) => word(was)).join('|'), 'g');
  return [...text.matchAll(re)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    text: to.get(m[0]) as string,
  }));
}

/** The edited text, and `bounds` moved with it (one inside a replaced span moves to its end). */
function applyEdits(text: string, edits: Edit[], bounds: number[]): { text: string; bounds: number[] } {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let from = 0;
  for (const e of sorted) {
    out += text.slice(from, e.start) + e.text;
    from = e.end;
  }
  out += text.slice(from);
  const moved = bounds.map((b) => {
    const inside = sorted.find((e) => b > e.start && b < e.end);
    const at = inside ? inside.end : b;
    return at + sorted.filter((e) => e.end <= at).reduce((d, e) => d + e.text.length - (e.end - e.start), 0);
  });
  return { text: out, bounds: moved };
}

function splitAt(text: string, bounds: number[]): string[] {
  const cuts = [0, ...bounds, text.length];
  return cuts.slice(1).map((end, i) => text.slice(cuts[i], end));
}

type Delta = { obj: Record<string, unknown>; key: string };

/**
 * Chat Completions stream events rewritten where a swapped value was split across deltas of one
 * stream (`content`, `reasoning_content`, a tool call's `arguments`, per choice and call).
 */
function streamEdits(text: string, swaps: [string, string][]): Edit[] {
  const events = parseEvents(text);
  const streams = new Map<string, { event: number; at: Delta }[]>();
  for (const [i, ev] of events.entries())
    for (const [key, at] of deltasOf(ev.json))
      streams.set(key, [...(streams.get(key) ?? []), { event: i, at }]);
  const changed = new Set<number>();
  for (const parts of streams.values()) {
    const pieces = parts.map((p) => p.at.obj[p.at.key] as string);
    const whole = pieces.join('');
    const found = occurrences(whole, swaps);
    if (!found.some((e) => pieceOf(pieces, e.start) !== pieceOf(pieces, e.end - 1))) continue;
    const out = applyEdits(whole, found, ends(pieces).slice(0, -1));
    for (const [j, piece] of splitAt(out.text, out.bounds).entries()) {
      const p = parts[j] as (typeof parts)[number];
      p.at.obj[p.at.key] = piece;
      changed.add(p.event);
    }
  }
  return [...changed].map((i) => {
    const ev = events[i] as ParsedEvent;
    const line = `data: ${JSON.stringify(ev.json)}`;
    return { start: ev.start, end: ev.end, text: applyEdits(line, occurrences(line, swaps), []).text };
  });
}

/** Where each piece ends in the pieces joined. */
function ends(pieces: string[]): number[] {
  const out: number[] = [];
  for (const p of pieces) out.push((out.at(-1) ?? 0) + p.length);
  return out;
}

const pieceOf = (pieces: string[], offset: number) => ends(pieces).findIndex((end) => end > offset);

interface ParsedEvent {
  start: number;
  end: number;
  json: Record<string, unknown>;
}

/** The stream's `data: {…}` events (a single data line each) with where they stand in the text. */
function parseEvents(text: string): ParsedEvent[] {
  const out: ParsedEvent[] = [];
  for (const m of text.matchAll(/^data: (\{.*\})(?=\r?$)/gm)) {
    try {
      out.push({ start: m.index, end: m.index + m[0].length, json: JSON.parse(m[1] as string) });
    } catch {
      // Not JSON: left as recorded.
    }
  }
  return out;
}

/** The streamed text fields of one Chat Completions chunk, keyed by choice and tool call. */
function deltasOf(json: Record<string, unknown>): [string, Delta][] {
  const choices = Array.isArray(json.choices) ? (json.choices as Record<string, unknown>[]) : [];
  return choices.flatMap((c) => {
    const delta = (c.delta ?? {}) as Record<string, unknown>;
    const own = ['content', 'reasoning_content']
      .filter((k) => typeof delta[k] === 'string')
      .map((k): [string, Delta] => [`${c.index}.${k}`, { obj: delta, key: k }]);
    const calls = Array.isArray(delta.tool_calls) ? (delta.tool_calls as Record<string, unknown>[]) : [];
    const args = calls.flatMap((t): [string, Delta][] => {
      const fn = (t.function ?? {}) as Record<string, unknown>;
      return typeof fn.arguments === 'string'
        ? [[`${c.index}.call${t.index}`, { obj: fn, key: 'arguments' }]]
        : [];
    });
    return [...own, ...args];
  });
}
