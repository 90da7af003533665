import type { Config } from '../config.ts';
import { entriesOf } from './channel-entries.ts';

type AllowConfig = Pick<Config, 'ALLOWED_USERS' | 'ALLOWED_CHATS'>;

/**
 * R-A5 on Feishu: with no Feishu entries in `ALLOWED_USERS` and no `ALLOWED_CHATS`, everyone in
 * the chats the bot is in; otherwise a person any of whose ids is listed, or anyone in a listed chat.
 */
export function feishuAdmits(
  config: AllowConfig,
  ids: readonly string[],
  chatId: string | undefined,
): boolean {
  const users = entriesOf(config.ALLOWED_USERS, 'feishu');
  if (!users.length && !config.ALLOWED_CHATS.length) return true;
  if (ids.some((id) => users.includes(id))) return true;
  return chatId !== undefined && config.ALLOWED_CHATS.includes(chatId);
}

/**
 * R-A5 on GitHub: the allow-list only ever narrows. Repository permission is required anyway (see
 * `maySteer`); when `ALLOWED_USERS` names GitHub people, the author must also be one of them, by
 * login (case-insensitive) or numeric id (stable across renames).
 */
export function githubListAdmits(
  config: AllowConfig,
  author: { id: string; numericId?: number | undefined },
): boolean {
  const listed = entriesOf(config.ALLOWED_USERS, 'github');
  if (!listed.length) return true;
  return (
    listed.includes(author.id.toLowerCase()) ||
    (author.numericId !== undefined && listed.includes(String(author.numericId)))
  );
}
