import type { Config } from '../../config.ts';

/** What the Feishu parsers need to know besides the event itself. */
export interface FeishuFacts {
  config: Pick<Config, 'FEISHU_APP_ID' | 'ALLOWED_USERS' | 'ALLOWED_CHATS' | 'CHAT_REPOS'>;
  /** The bot's open_id from `bot/v3/info`; undefined while unknown. */
  botOpenId: string | undefined;
}
