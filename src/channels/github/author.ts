import type { Author } from '../../cards/card.ts';
import type { GitHubUser } from './payloads.ts';

/** GitHub logins are case-insensitive; an App's events come from `<slug>[bot]`. */
const bare = (login: string): string => login.toLowerCase().replace(/\[bot\]$/, '');

/** Whether `login` is this bot, with or without the `[bot]` suffix. */
export function isBotLogin(login: string, botLogin: string): boolean {
  return bare(login) === bare(botLogin);
}

/**
 * Classifies who caused an event (R-A2): this bot is `self`, any other automation `bot`, everyone
 * else a `person`. `role` is the `author_association` when it belongs to this user (R-A5).
 */
export function authorOf(user: GitHubUser, botLogin: string, association?: string): Author {
  const type = isBotLogin(user.login, botLogin)
    ? 'self'
    : user.type === 'Bot' || user.login.endsWith('[bot]')
      ? 'bot'
      : 'person';
  return {
    id: user.login,
    type,
    ...(association ? { role: association } : {}),
    ...(user.id !== undefined ? { numericId: user.id } : {}),
  };
}
