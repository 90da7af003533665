import type { Config } from '../../config.ts';
import { feishuAdmits } from '../../safety/allow-list.ts';
import type { UserIds } from './event-schemas.ts';

type AllowConfig = Pick<Config, 'ALLOWED_USERS' | 'ALLOWED_CHATS'>;

/**
 * R-A5: who may start or steer work from Feishu (`feishuAdmits`), by any of the person's ids:
 * `ALLOWED_USERS` entries `feishu:<open_id|user_id|union_id>`, or `ALLOWED_CHATS` `feishu:<chat_id>`.
 */
export function isAllowedOnFeishu(config: AllowConfig, user: UserIds, chatId: string | undefined): boolean {
  const ids = [user.open_id, user.user_id, user.union_id].filter((v): v is string => Boolean(v));
  return feishuAdmits(config, ids, chatId);
}

/** The role a card's author gets when they are outside the allow-lists (routing ignores them). */
export const NOT_ALLOWED_ROLE = 'not_allowed';
