import { languageOfText } from '../../i18n/detect-language.ts';
import { FEISHU_LOCALE } from '../../i18n/lang.ts';
import { neutralizeMentions } from '../../safety/neutralize-mentions.ts';

/**
 * A Feishu `post` (rich text) message's `content` for a Markdown text (issue 16): one `md` node,
 * alone in its paragraph as Feishu requires, under the locale of the text's language — so links,
 * code and lists render instead of showing raw. The object starts at the locale key: the `post`
 * wrapper belongs to the webhook-bot API, and `im/v1/messages` refuses it (230001). An @all in
 * the text pings no one (issue 31, `neutralizeMentions`).
 */
export function postContent(markdown: string): string {
  const locale = FEISHU_LOCALE[languageOfText(markdown)];
  const text = neutralizeMentions(markdown);
  return JSON.stringify({ [locale]: { content: [[{ tag: 'md', text }]] } });
}
