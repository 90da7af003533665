import type { Config } from '../../config.ts';
import type { UserIds } from './event-schemas.ts';

type AllowConfig = Pick<Config, 'ALLOWED_USERS' | 'ALLOWED_CHATS'>;

/**
 * R-A5: who may start or steer work from Feishu. With neither list set, everyone in the chats the
 * bot is in may; otherwise a person may when any of their ids is in `ALLOWED_USERS` or the chat is
 * in `ALLOWED_CHATS` (a list of people anywhere, or everyone in certain chats).
 */
export function isAllowedOnFeishu(config: AllowConfig, user: UserIds, chatId: string | undefined): boolean {
  if (!config.ALLOWED_USERS.length && !config.ALLOWED_CHATS.length) return true;
  const ids = [user.open_id, user.user_id, user.union_id].filter((v): v is string => Boolean(v));
  if (ids.some((v) => config.ALLOWED_USERS.includes(v))) return true;
  return chatId !== undefined && config.ALLOWED_CHATS.includes(chatId);
}

/** The role a card's author gets when they are outside the allow-lists (routing ignores them). */
export const NOT_ALLOWED_ROLE = 'not_allowed';
