import { truncateClean } from '../../cards/truncate.ts';
import { languageOfText } from '../../i18n/detect-language.ts';
import { FEISHU_LOCALE } from '../../i18n/lang.ts';
import { neutralizeMentions } from '../../safety/neutralize-mentions.ts';

/**
 * Feishu's limit on a post (rich text) message, measured on the whole request body, not its
 * `content`: "the maximum size of a card message or rich text message request body cannot
 * exceed 30 KB" (im/v1 send and reply; over it Feishu answers 230025).
 */
export const POST_BODY_MAX_BYTES = 30 * 1024;

/** A post message's request body: the call's own fields, `msg_type` and `content`. */
export type PostBody<F> = F & { msg_type: 'post'; content: string };

/**
 * The request body of a Feishu `post` (rich text) message for a Markdown text (issue 16), with
 * the call's other fields (`receive_id`, `uuid`, …): one `md` node, alone in its paragraph as
 * Feishu requires, under the locale of the text's language — so links, code and lists render
 * instead of showing raw. The content starts at the locale key: the `post` wrapper belongs to the
 * webhook-bot API, and `im/v1/messages` refuses it (230001). An @all in the text pings no one
 * (issue 31, `neutralizeMentions`). A text whose body would pass Feishu's 30 KB is cut at a
 * clean boundary with `…` (issue 46): Feishu would refuse it whole, for good. The body is
 * measured as the SDK sends it (`JSON.stringify`), so the content's escapes count twice.
 */
export function postBody<F extends Record<string, unknown>>(markdown: string, fields: F): PostBody<F> {
  const locale = FEISHU_LOCALE[languageOfText(markdown)];
  const text = neutralizeMentions(markdown);
  const encode = (t: string): PostBody<F> => ({
    ...fields,
    msg_type: 'post',
    content: JSON.stringify({ [locale]: { content: [[{ tag: 'md', text: t }]] } }),
  });
  let body = encode(text);
  let size = bytesOf(body);
  let cap = text.length;
  while (size > POST_BODY_MAX_BYTES) {
    // Characters and bytes differ (CJK is 3 bytes, JSON escapes more): shrink by the ratio, a bit under.
    cap = Math.floor((cap * POST_BODY_MAX_BYTES * 0.95) / size);
    body = encode(`${truncateClean(text, cap).text}…`);
    size = bytesOf(body);
  }
  return body;
}

const bytesOf = (body: unknown): number => Buffer.byteLength(JSON.stringify(body));
