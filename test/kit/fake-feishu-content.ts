/**
 * What Feishu checks in a sent message's `content` (im/v1 message create and reply), and how a
 * person in the chat reads it. Feishu refuses a malformed content with HTTP 400 and code 230001
 * ("invalid message content"): a `post` wrapped in `{"post": …}` (the webhook-bot shape), no
 * locale, a paragraph that is not a list, an unknown tag, a node without its required fields, or
 * an `md` node sharing its paragraph with another node.
 * (open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/im-v1/message/create_json)
 */

type Node = Record<string, unknown>;

const LOCALES = new Set([
  'zh_cn',
  'en_us',
  'ja_jp',
  'zh_hk',
  'zh_tw',
  'id_id',
  'vi_vn',
  'th_th',
  'pt_br',
  'es_es',
  'ko_kr',
  'de_de',
  'fr_fr',
  'it_it',
  'ru_ru',
  'ms_my',
]);

/** The fields each post tag requires. */
const REQUIRED: Record<string, string[]> = {
  text: ['text'],
  a: ['text', 'href'],
  at: ['user_id'],
  img: ['image_key'],
  media: ['file_key'],
  emotion: ['emoji_type'],
  hr: [],
  code_block: ['text'],
  md: ['text'],
};

/** Why Feishu would refuse this content, or undefined when it takes it. */
export function contentProblem(msgType: string, content: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(content);
  } catch {
    return 'content is not JSON';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'content is not an object';
  const o = v as Record<string, unknown>;
  if (msgType === 'text') return typeof o.text === 'string' ? undefined : 'text field can not be nil';
  if (msgType === 'post') return postProblem(o);
  return undefined;
}

function postProblem(o: Record<string, unknown>): string | undefined {
  const keys = Object.keys(o);
  if (!keys.length) return 'post has no locale';
  for (const locale of keys) {
    if (!LOCALES.has(locale)) return `message_content has wrong tag:{${locale}}`;
    const body = o[locale] as { title?: unknown; content?: unknown } | null;
    if (typeof body !== 'object' || body === null) return `${locale} is not an object`;
    if (body.title !== undefined && typeof body.title !== 'string') return 'title is not a string';
    if (!Array.isArray(body.content)) return 'content is not a list of paragraphs';
    for (const paragraph of body.content) {
      const problem = paragraphProblem(paragraph);
      if (problem) return problem;
    }
  }
  return undefined;
}

function paragraphProblem(paragraph: unknown): string | undefined {
  if (!Array.isArray(paragraph)) return 'a paragraph is not a list';
  for (const node of paragraph as Node[]) {
    const required = REQUIRED[String(node?.tag)];
    if (!required) return `unknown tag ${String(node?.tag)}`;
    const missing = required.find((f) => typeof node[f] !== 'string');
    if (missing) return `${missing} field can't be nil`;
    if (node.tag === 'md' && paragraph.length > 1) return 'an md node must be alone in its paragraph';
  }
  return undefined;
}

/** Markdown as the client shows it: link texts without their URLs, no emphasis marks. */
function renderedMarkdown(md: string): string {
  return md.replace(/\[([^\]\n]*)\]\([^)\s]*\)/g, '$1').replace(/\*\*/g, '');
}

/** What a person in the chat reads: a text's text, a post's title and paragraphs (first locale). */
export function readableText(msgType: string, content: string): string | undefined {
  try {
    const v = JSON.parse(content) as Record<string, unknown>;
    if (msgType === 'text') return typeof v.text === 'string' ? v.text : undefined;
    if (msgType !== 'post') return undefined;
    const body = Object.values(v)[0] as { title?: string; content: Node[][] };
    const lines = body.content.map((p) =>
      p.map((n) => (n.tag === 'md' ? renderedMarkdown(String(n.text)) : String(n.text ?? ''))).join(''),
    );
    return [...(body.title ? [body.title] : []), ...lines].join('\n');
  } catch {
    return undefined;
  }
}
