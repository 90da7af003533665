import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8');

/** The scopes JSON block of a guide, parsed. */
function scopesOf(doc: string): { tenant: string[]; user: string[] } {
  const block = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
  if (!block) throw new Error('no json block');
  return (JSON.parse(block) as { scopes: { tenant: string[]; user: string[] } }).scopes;
}

describe('issue 16: the Feishu setup guides', () => {
  it('issue 16: both languages give the same bulk-import JSON, and explain every scope in it', () => {
    const en = read('feishu-setup.md');
    const zh = read('feishu-setup.zh.md');
    expect(scopesOf(zh)).toEqual(scopesOf(en));
    for (const doc of [en, zh]) {
      for (const scope of scopesOf(doc).tenant) expect(doc).toContain(`| \`${scope}\``);
      // The scope whose absence breaks "reply to steer" silently (issue 16).
      expect(scopesOf(doc).tenant).toContain('im:message.group_msg');
      for (const name of ['im.message.receive_v1', 'card.action.trigger', 'FEISHU_EVENT_MODE']) {
        expect(doc).toContain(name);
      }
    }
  });
});
