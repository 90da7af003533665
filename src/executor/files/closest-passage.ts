import { LEVELS, LINE_WORK, passageLines } from './find-passage.ts';

/** Above this many line comparisons only equal lines count (a fuzzy score per pair would be slow). */
const FUZZY_WORK = 400_000;
/** Characters of a line compared: enough to recognise it, and a minified line costs no more. */
const COMPARED_CHARS = 400;
const lastLevel = LEVELS[LEVELS.length - 1]?.norm ?? ((l: string) => l.trim());
const norm = (l: string) => lastLevel(l.slice(0, COMPARED_CHARS));

/** Character pairs of a line, counted, for a Dice similarity. */
function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + 1 < s.length; i++) {
    const b = s.slice(i, i + 2);
    m.set(b, (m.get(b) ?? 0) + 1);
  }
  return m;
}

function dice(a: Map<string, number>, b: Map<string, number>, na: number, nb: number): number {
  if (na + nb === 0) return 0;
  let common = 0;
  for (const [k, v] of a) common += Math.min(v, b.get(k) ?? 0);
  return (2 * common) / (na + nb);
}

/**
 * The run of the file's lines most like `old` (issue 28: a failed `edit_file` shows where the model
 * probably meant), as its 0-based first line and length; undefined when no line resembles any of
 * `old`'s. Lines are compared after the most tolerant normalisation, by character-pair similarity.
 */
export function closestPassage(
  lines: readonly string[],
  old: string,
): { first: number; span: number } | undefined {
  const want = passageLines(old).map(norm);
  const span = Math.min(want.length, lines.length);
  if (span === 0 || lines.length * span > LINE_WORK) return undefined;
  const file = lines.map(norm);
  const fuzzy = file.length * want.length <= FUZZY_WORK;
  const wantGrams = want.map(bigrams);
  const fileGrams = fuzzy ? file.map(bigrams) : [];
  const sim = (i: number, k: number): number => {
    const f = file[i] ?? '';
    const w = want[k] ?? '';
    if (f === w) return w === '' ? 0.1 : 1;
    if (!fuzzy) return 0;
    return dice(
      fileGrams[i] ?? new Map(),
      wantGrams[k] ?? new Map(),
      Math.max(0, f.length - 1),
      Math.max(0, w.length - 1),
    );
  };
  let best = { first: 0, score: 0 };
  for (let i = 0; i + span <= file.length; i++) {
    let score = 0;
    for (let k = 0; k < span; k++) score += sim(i + k, k);
    if (score > best.score) best = { first: i, score };
  }
  return best.score / span >= 0.3 ? { first: best.first, span } : undefined;
}
