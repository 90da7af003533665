import { describe, expect, it } from 'vitest';
import type { Mention } from '../../../src/channels/feishu/event-schemas.ts';
import { messageText } from '../../../src/channels/feishu/message-text.ts';

const ids = (open_id: string) => ({ open_id, user_id: undefined, union_id: undefined });
const mentions: Mention[] = [
  { key: '@_user_1', id: ids('ou_bot'), name: 'Bot' },
  { key: '@_user_2', id: ids('ou_bob'), name: 'Bob' },
  { key: '@_user_12', id: ids('ou_zed'), name: 'Zed' },
];
const isBot = (m: Mention) => m.id.open_id === 'ou_bot';

describe('messageText', () => {
  it('R-A3: placeholders become names, @_user_12 is not read as @_user_1, the bot mention goes with its space', () => {
    const content = JSON.stringify({ text: 'hey @_user_1 tell @_user_12 and @_user_2, cc @_all' });
    expect(messageText('text', content, mentions, isBot)).toEqual({
      text: 'hey tell @Zed and @Bob, cc @all',
    });
  });

  it('R-A3: post lines, links, code blocks and the locale wrapper read as plain text', () => {
    const post = {
      zh_cn: {
        title: 'T',
        content: [
          [
            { tag: 'at', user_id: '@_user_1' },
            { tag: 'text', text: ' run this:' },
          ],
          [{ tag: 'code_block', language: 'sh', text: '  npm test' }],
          [
            { tag: 'a', text: 'https://x.dev', href: 'https://x.dev' },
            { tag: 'img', image_key: 'k' },
          ],
        ],
      },
    };
    expect(messageText('post', JSON.stringify(post), mentions, isBot)).toEqual({
      title: 'T',
      text: 'run this:\n\n```sh\n  npm test\n```\n\nhttps://x.dev[image]',
    });
  });

  it('R-A3: malformed content gives empty text rather than an error', () => {
    expect(messageText('text', 'not json', [], isBot)).toEqual({ text: '' });
  });
});
