import type { TriggerCard } from '../cards/card.ts';
import type { Config } from '../config.ts';

/** GitHub author associations that carry write access to the repository. */
const GITHUB_WRITERS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/** Repository permissions that may steer (R-A5). */
const WRITE_PERMISSIONS = new Set(['admin', 'maintain', 'write']);

/**
 * R-A5: may this card's author start, steer, pause or resume work? Bots never may (R-A2). On
 * Feishu the allow-lists decide when set; on GitHub write access (author association) or the
 * user allow-list; the panel's local chat is the admin's own. Everyone else's text is data.
 */
export function maySteer(
  card: TriggerCard,
  config: Pick<Config, 'ALLOWED_USERS' | 'ALLOWED_CHATS'>,
): boolean {
  if (card.author.type !== 'person' || card.author.role === 'not_allowed') return false;
  const listedUser = config.ALLOWED_USERS.includes(card.author.id);
  switch (card.origin.source) {
    case 'local':
      return true;
    case 'feishu': {
      // Either list admits: a listed person anywhere, or anyone in a listed chat (as the Feishu edge decides).
      if (!config.ALLOWED_USERS.length && !config.ALLOWED_CHATS.length) return true;
      return listedUser || config.ALLOWED_CHATS.includes(card.origin.chatId);
    }
    case 'github':
      if (listedUser) return true;
      // The router's looked-up permission decides when there is one (issue 8); else the association.
      if (card.author.permission) return WRITE_PERMISSIONS.has(card.author.permission);
      return GITHUB_WRITERS.has((card.author.role ?? '').toUpperCase());
  }
}
