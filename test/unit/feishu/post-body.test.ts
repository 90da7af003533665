import { describe, expect, it } from 'vitest';
import { postBody } from '../../../src/channels/feishu/post-content.ts';

/**
 * Issue 46 item 3 (review): Feishu's 30 KB limit on a post is on the request body — "the maximum
 * size of a card message or rich text message request body cannot exceed 30 KB" — so the
 * product's own guard measures the body the SDK sends (`JSON.stringify` of `data`), where the
 * content's escapes count twice, not the `content` string alone.
 */
describe('a Feishu post’s request body fits Feishu’s 30 KB', () => {
  const fields = { receive_id: 'oc_room', uuid: 'sy-0123456789abcdef' };
  const size = (body: unknown) => Buffer.byteLength(JSON.stringify(body));
  const textOf = (body: { content: string }) =>
    (Object.values(JSON.parse(body.content))[0] as { content: { text: string }[][] }).content[0]?.[0]?.text;

  it('a body of exactly 30 KB goes whole; one character more and the text is cut to fit', () => {
    const base = size(postBody('x', fields)) - 1;
    const whole = 'x'.repeat(30 * 1024 - base);
    const at = postBody(whole, fields);
    expect(size(at)).toBe(30 * 1024);
    expect(textOf(at)).toBe(whole);
    expect(at).toMatchObject({ ...fields, msg_type: 'post' });
    const over = postBody(`${whole}x`, fields);
    expect(size(over)).toBeLessThanOrEqual(30 * 1024);
    expect(textOf(over)?.endsWith('…')).toBe(true);
    expect(whole.startsWith(textOf(over)?.slice(0, -1) ?? '-')).toBe(true);
  });

  it('a text whose content is under 30 KB but whose body is over (quotes escaped twice) is cut', () => {
    const text = `He said "${'"'.repeat(9000)}" twice.`;
    const body = postBody(text, fields);
    expect(Buffer.byteLength(JSON.stringify(JSON.parse(body.content)))).toBeLessThan(30 * 1024);
    expect(size(body)).toBeLessThanOrEqual(30 * 1024);
    expect(textOf(body)?.endsWith('…')).toBe(true);
    // The whole text's content alone was under the limit: only the body is over.
    expect(Buffer.byteLength(JSON.stringify({ en_us: { content: [[{ tag: 'md', text }]] } }))).toBeLessThan(
      30 * 1024,
    );
  });
});
