import type { Config } from '../config.ts';
import type { TriggerCard } from './card.ts';

/**
 * Issue 31 "growth is bounded by design": what bounds the storage one card may take, decided
 * from the card alone so the claim script applies it in the same call that stores the card.
 */

const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

/** How long a card and its full text live: `RETENTION_DAYS` for a request (issue 14), else short until attached. */
export function cardTtlSeconds(
  config: Pick<Config, 'RETENTION_DAYS' | 'UNATTACHED_CARD_TTL_HOURS'>,
  card: TriggerCard,
) {
  return card.request ? retentionSeconds(config) : Math.ceil(config.UNATTACHED_CARD_TTL_HOURS * HOUR_S);
}

/** A card's lifetime once a ticket holds it: `RETENTION_DAYS` (issue 14). */
export const retentionSeconds = (config: Pick<Config, 'RETENTION_DAYS'>): number =>
  Math.ceil(config.RETENTION_DAYS * DAY_S);

/**
 * The object whose text the card carries, when later cards may carry a newer version of it: a
 * GitHub comment, review or line comment (by id), or an issue's or PR's body (by number). Each
 * edit is its own delivery and card; only the newest keeps a full text.
 */
export function textObject(card: TriggerCard): string | undefined {
  const o = card.origin;
  if (o.source !== 'github') return undefined;
  const repo = o.repo.toLowerCase();
  if (o.commentId !== undefined) return `${repo}:${o.commentType ?? 'comment'}:${o.commentId}`;
  if ((card.kind === 'issue' || card.kind === 'pull_request') && o.number !== undefined)
    return `${repo}#${o.number}`;
  return undefined;
}

/**
 * The ingest rate scopes a card counts against: its author and its place (a GitHub repository,
 * a Feishu chat). The panel's chat is its admins' own and never limited. Checks skip the author
 * scope: one CI app reports for every repository, and a dropped check is a ticket's lost CI news.
 */
export function rateScopes(card: TriggerCard): { author?: string; place?: string } {
  const o = card.origin;
  if (o.source === 'local') return {};
  const place = o.source === 'github' ? `github:repo:${o.repo.toLowerCase()}` : `feishu:chat:${o.chatId}`;
  if (card.kind === 'check') return { place };
  return { author: `${card.source}:author:${card.author.id.toLowerCase()}`, place };
}
