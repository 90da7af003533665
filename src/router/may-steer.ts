import type { TriggerCard } from '../cards/card.ts';
import type { Config } from '../config.ts';
import { githubListAdmits } from '../safety/allow-list.ts';

/** GitHub author associations that carry write access to the repository. */
const GITHUB_WRITERS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/** Repository permissions that may steer (R-A5). */
export const WRITE_PERMISSIONS = new Set(['admin', 'maintain', 'write']);

type AllowConfig = Pick<Config, 'ALLOWED_USERS' | 'ALLOWED_CHATS'>;

/**
 * R-A5: may this card's author start work, or steer work in the card's own repository or chat?
 * Bots never may (R-A2). Feishu: the allow-lists (`feishuAdmits`, applied at the edge). GitHub: write access to the
 * card's repository (the looked-up permission, else the association) — and, when `ALLOWED_USERS`
 * names GitHub people, being one of them: the list narrows, it never replaces the permission
 * (issue 14). The panel's local chat is the admin's own. Steering an existing ticket is decided
 * against the ticket's own repository or chat: see `standingOn` (R-H5).
 */
export function maySteer(card: TriggerCard, config: AllowConfig): boolean {
  if (card.author.type !== 'person' || card.author.role === 'not_allowed') return false;
  switch (card.origin.source) {
    case 'local':
      return true;
    case 'feishu':
      // The edge applied the allow-lists with every id of the person (open, user and union id)
      // and marked outsiders `not_allowed` (checked above); the card keeps only the open_id.
      return true;
    case 'github':
      return hasWriteAccess(card) && githubListAdmits(config, card.author);
  }
}

/** The router's looked-up permission when there is one (issue 8); else the author association. */
function hasWriteAccess(card: TriggerCard): boolean {
  if (card.author.permission) return WRITE_PERMISSIONS.has(card.author.permission);
  return GITHUB_WRITERS.has((card.author.role ?? '').toUpperCase());
}
