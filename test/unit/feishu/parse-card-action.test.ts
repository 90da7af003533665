import { describe, expect, it } from 'vitest';
import { CardActionEventSchema } from '../../../src/channels/feishu/event-schemas.ts';
import type { FeishuFacts } from '../../../src/channels/feishu/facts.ts';
import { parseCardAction } from '../../../src/channels/feishu/parse-card-action.ts';
import { cardAction } from '../../kit/feishu-webhook.ts';

const facts: FeishuFacts = {
  botOpenId: 'ou_bot',
  config: { FEISHU_APP_ID: 'cli', ALLOWED_USERS: [], ALLOWED_CHATS: [], CHAT_REPOS: new Map() },
};
const flat = (e: ReturnType<typeof cardAction>) => CardActionEventSchema.parse({ ...e.header, ...e.event });

describe('parseCardAction', () => {
  it('R-A1: `{ action: "pause" }` and `"pause"` both read as button:pause, with the card message as the ref', () => {
    for (const value of [{ action: 'pause' }, 'pause']) {
      const draft = parseCardAction(flat(cardAction({ value, openMessageId: 'om_card' })), facts);
      expect(draft).toMatchObject({
        kind: 'card_action',
        action: 'button:pause',
        text: 'pause',
        request: false,
        refs: [{ type: 'message', id: 'om_card' }],
        origin: { messageId: 'om_card', chatId: 'oc_team' },
      });
    }
  });

  it('R-A1: other values are kept as JSON so nothing the button carried is lost', () => {
    const draft = parseCardAction(flat(cardAction({ value: { choice: 2 } })), facts);
    expect(draft.action).toBe('button:{"choice":2}');
  });
});
