import { truncateClean } from '../../cards/truncate.ts';
import { languageOfText } from '../../i18n/detect-language.ts';
import { FEISHU_LOCALE } from '../../i18n/lang.ts';
import { neutralizeMentions } from '../../safety/neutralize-mentions.ts';

/** Feishu refuses a card or post whose `content` is over 30 KB (230025, its message limits). */
export const POST_CONTENT_MAX_BYTES = 30 * 1024;

/**
 * A Feishu `post` (rich text) message's `content` for a Markdown text (issue 16): one `md` node,
 * alone in its paragraph as Feishu requires, under the locale of the text's language — so links,
 * code and lists render instead of showing raw. The object starts at the locale key: the `post`
 * wrapper belongs to the webhook-bot API, and `im/v1/messages` refuses it (230001). An @all in
 * the text pings no one (issue 31, `neutralizeMentions`). A text whose content would pass Feishu's
 * 30 KB is cut at a clean boundary with `…` (issue 46): Feishu would refuse it whole, for good.
 */
export function postContent(markdown: string): string {
  const locale = FEISHU_LOCALE[languageOfText(markdown)];
  const text = neutralizeMentions(markdown);
  const encode = (t: string) => JSON.stringify({ [locale]: { content: [[{ tag: 'md', text: t }]] } });
  let content = encode(text);
  let cap = text.length;
  while (Buffer.byteLength(content) > POST_CONTENT_MAX_BYTES) {
    // Characters and bytes differ (CJK is 3 bytes, JSON escapes more): shrink by the ratio, a bit under.
    cap = Math.floor((cap * POST_CONTENT_MAX_BYTES * 0.95) / Buffer.byteLength(content));
    content = encode(`${truncateClean(text, cap).text}…`);
  }
  return content;
}
