import type { TriggerCard } from '../cards/card.ts';

export type Command = 'pause' | 'resume';

const PAUSE = new Set(['pause', 'stop', '暂停', '停止']);
const RESUME = new Set(['resume', '继续']);

/**
 * A pause or resume command (CONTRACT "In chat and on GitHub"): `/pause`, `pause`, `stop`, `暂停`,
 * `停止` — or `/resume`, `resume`, `继续` — as the whole message, mentions and trailing
 * punctuation aside; or the Pause / Resume button of a status card.
 */
export function commandOf(card: TriggerCard): Command | undefined {
  if (card.kind === 'card_action') {
    if (card.action === 'button:pause') return 'pause';
    if (card.action === 'button:resume') return 'resume';
    return undefined;
  }
  if (card.kind !== 'message' && card.kind !== 'issue_comment' && card.kind !== 'review_comment')
    return undefined;
  const word = card.text
    .replace(/@[\w.\-[\]]+/g, ' ')
    .trim()
    .replace(/^\//, '')
    .replace(/[\s.!。！]+$/u, '')
    .toLowerCase();
  if (PAUSE.has(word)) return 'pause';
  if (RESUME.has(word)) return 'resume';
  return undefined;
}
