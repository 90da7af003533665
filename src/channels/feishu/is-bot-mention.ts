import type { Mention } from './event-schemas.ts';

/**
 * Whether a mention addresses this bot. Its open_id decides; while the bot's identity is still
 * unknown (Feishu's bot info did not answer) a mention typed `bot`, or any mention when the event
 * does not say, counts: a person's request is not dropped for that, and routing ignores noise.
 */
export function isBotMention(m: Mention, botOpenId: string | undefined): boolean {
  if (botOpenId) return m.id.open_id === botOpenId;
  return m.mentioned_type === undefined || m.mentioned_type === 'bot';
}
