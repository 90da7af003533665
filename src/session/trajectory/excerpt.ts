/** A text as the trajectory shows it: its opening line at once, the whole (capped) on request. */
export interface Excerpt {
  head: string;
  /** Characters of the whole text. */
  chars: number;
  /** The text, capped at `FULL_CAP`, when it is longer than `head`. */
  full?: string;
}

const HEAD_CAP = 160;
export const FULL_CAP = 16_000;

/** The first line (at most 160 characters) of a text, and the rest behind it when there is more. */
export function excerpt(text: string): Excerpt {
  const nl = text.indexOf('\n');
  const line = nl < 0 ? text : text.slice(0, nl);
  const head = line.length > HEAD_CAP ? `${line.slice(0, HEAD_CAP)}…` : line;
  if (head === text) return { head, chars: text.length };
  const full =
    text.length > FULL_CAP
      ? `${text.slice(0, FULL_CAP)}\n… (${text.length - FULL_CAP} more characters)`
      : text;
  return { head, chars: text.length, full };
}
