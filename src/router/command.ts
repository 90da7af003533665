import type { TriggerCard } from '../cards/card.ts';

export type Command = 'pause' | 'resume';

const PAUSE = new Set(['pause', 'stop', '暂停', '停止']);
const RESUME = new Set(['resume', '继续']);
const MAX_COMMAND_CHARS = 500;
const TRAILING = new Set(['.', '!', '。', '！']);

/** Drops trailing spaces and `.!。！` by a backwards scan (a `[…]+$` regex retries per position). */
function trimEnd(s: string): string {
  let end = s.length;
  while (end > 0 && (TRAILING.has(s.charAt(end - 1)) || /\s/.test(s.charAt(end - 1)))) end--;
  return s.slice(0, end);
}

/**
 * Whether a card is text a person wrote where commands are read (issue 30): a chat message, an
 * issue or PR comment, a review comment, or the body of a submitted review — a dismissal carries
 * the old body again and commands nothing.
 */
export function writtenText(card: TriggerCard): boolean {
  if (card.kind === 'review') return card.action === 'submitted';
  return card.kind === 'message' || card.kind === 'issue_comment' || card.kind === 'review_comment';
}

/**
 * A pause or resume command (CONTRACT "In chat and on GitHub"): `/pause`, `pause`, `stop`, `暂停`,
 * `停止` — or `/resume`, `resume`, `继续` — as the whole message, mentions and trailing
 * punctuation aside, wherever a person writes (`writtenText`); or the Pause / Resume button of a
 * status card.
 */
export function commandOf(card: TriggerCard): Command | undefined {
  if (card.kind === 'card_action') {
    if (card.action === 'button:pause') return 'pause';
    if (card.action === 'button:resume') return 'resume';
    return undefined;
  }
  if (!writtenText(card)) return undefined;
  // A command is the whole message: a long text is none, and is never scanned (issue 14).
  if (card.text.length > MAX_COMMAND_CHARS) return undefined;
  const word = trimEnd(
    card.text
      .replace(/@[\w.\-[\]]+/g, ' ')
      .trim()
      .replace(/^\//, ''),
  ).toLowerCase();
  if (PAUSE.has(word)) return 'pause';
  if (RESUME.has(word)) return 'resume';
  return undefined;
}
