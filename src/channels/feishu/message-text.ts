import type { Mention } from './event-schemas.ts';

export interface MessageText {
  text: string;
  title?: string;
}

/** A post element, as far as text goes. */
interface PostElement {
  tag?: string;
  text?: string;
  href?: string;
  user_id?: string;
  user_name?: string;
  language?: string;
  emoji_type?: string;
}

/**
 * The readable text of a message (R-A3): `text` and `post` contents with `@_user_N` placeholders
 * turned into `@Name` and the bot's own mention removed (it only addressed the message); types the
 * SDK does not render for us (`read-message.ts` says which and why) become a short bracketed marker
 * so the card still says what was sent. Kept by hand, not the SDK's `normalize()`: its mention pass
 * and whitespace collapse differ where cards, commands and permissions read the text.
 */
export function messageText(
  messageType: string,
  content: string,
  mentions: Mention[],
  isBot: (m: Mention) => boolean,
): MessageText {
  const parsed = safeJson(content);
  const names = new Map(mentions.map((m) => [m.key, isBot(m) ? '' : `@${m.name || 'someone'}`]));
  names.set('@_all', '@all');
  switch (messageType) {
    case 'text':
      return { text: tidy(replaceMentions(String(parsed?.text ?? ''), names)) };
    case 'post':
      return postText(parsed, names);
    case 'interactive':
      return { text: '[card]' };
    case 'merge_forward':
      return { text: '[forwarded messages]' };
    default:
      return { text: `[${messageType}]` };
  }
}

function postText(parsed: Record<string, unknown> | undefined, names: Map<string, string>): MessageText {
  // Events carry `{ title, content }`; the send API's locale wrapper (`{ zh_cn: {…} }`) is accepted too.
  const body = (parsed && !Array.isArray(parsed.content) ? Object.values(parsed).find(isPostBody) : parsed) as
    | { title?: unknown; content?: unknown }
    | undefined;
  const lines = Array.isArray(body?.content) ? (body.content as unknown[]) : [];
  const text = lines
    .map((line) =>
      Array.isArray(line) ? (line as PostElement[]).map((el) => elementText(el, names)).join('') : '',
    )
    .join('\n');
  const title = typeof body?.title === 'string' && body.title.trim() ? body.title.trim() : undefined;
  return title ? { text: tidy(text), title } : { text: tidy(text) };
}

/** A field of a post element as text: anything else (a number, an object, null) is none. */
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * One element of a post line as text. Elements come from the sender's JSON as they are: one that
 * is not an object, or a field that is not a string, reads as nothing rather than failing the
 * whole event.
 */
function elementText(raw: PostElement, names: Map<string, string>): string {
  if (!raw || typeof raw !== 'object') return '';
  const el = {
    tag: str(raw.tag),
    text: str(raw.text),
    href: str(raw.href),
    user_id: str(raw.user_id),
    user_name: str(raw.user_name),
    language: str(raw.language),
    emoji_type: str(raw.emoji_type),
  };
  switch (el.tag) {
    case 'text':
    case 'md':
      return replaceMentions(el.text ?? '', names);
    case 'a':
      return el.href && el.text && el.text !== el.href
        ? `${el.text} (${el.href})`
        : (el.href ?? el.text ?? '');
    case 'at': {
      const key = el.user_id ?? '';
      return names.get(key) ?? (el.user_name ? `@${el.user_name}` : '');
    }
    case 'code_block':
      return `\n\`\`\`${el.language ?? ''}\n${el.text ?? ''}\n\`\`\`\n`;
    case 'img':
      return '[image]';
    case 'media':
      return '[video]';
    case 'emotion':
      return el.emoji_type ? `:${el.emoji_type}:` : '';
    case 'hr':
      return '\n---\n';
    default:
      return el.text ?? '';
  }
}

/** A removed mention takes one following space with it, so `@bot fix it` reads `fix it`. */
function replaceMentions(text: string, names: Map<string, string>): string {
  return text.replace(/(@_user_\d+|@_all)( ?)/g, (whole, key: string, space: string) => {
    const name = names.get(key);
    if (name === undefined) return whole;
    return name ? name + space : '';
  });
}

/** Trims line ends and runs of blank lines; indentation (code) is kept. */
export function tidy(text: string): string {
  return trimLineEnds(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A blank just before a newline: one character and the newline, so matching is linear. */
const BLANK_BEFORE_NEWLINE = /[^\S\n]\n/g;

const isBlank = (code: number): boolean => code !== 10 && /\s/.test(String.fromCharCode(code));

/**
 * Every line without its trailing blanks (issue 14): only lines that end in a blank are visited
 * and copied around; splitting a 65k-newline message into lines cost ~9 ms.
 */
function trimLineEnds(text: string): string {
  const parts: string[] = [];
  let from = 0;
  for (const m of text.matchAll(BLANK_BEFORE_NEWLINE)) {
    const nl = m.index + 1;
    let end = m.index;
    while (end > from && isBlank(text.charCodeAt(end - 1))) end--;
    parts.push(text.slice(from, end));
    from = nl;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

function isPostBody(v: unknown): boolean {
  return Boolean(v && typeof v === 'object' && Array.isArray((v as { content?: unknown }).content));
}

function safeJson(s: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(s);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
