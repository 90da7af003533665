import type { Author } from '../../cards/card.ts';
import { GHOST_USER, type GitHubUser } from './payloads.ts';

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

/**
 * Issue 45: who wrote a comment's, review's, issue's or PR's text. GitHub's `sender` is whoever
 * acted — a writer editing, closing or reopening an outsider's words is not their author, and the
 * card keeps the author's standing (a non-steerer's text stays data and wakes nothing). A deleted
 * account (`user: null`, or `ghost`) has no permission anywhere.
 */
export function textAuthorOf(
  user: GitHubUser | null | undefined,
  botLogin: string,
  association?: string,
): Author {
  if (!user || user.login.toLowerCase() === GHOST_USER.login)
    return { ...authorOf(GHOST_USER, botLogin), permission: 'none' };
  return authorOf(user, botLogin, association);
}
