import type { ChatMessage } from '../chat-message.ts';

/**
 * A calibrated token estimate (R-H2), used to decide when to compact before a request is sent.
 * No tokenizer package matches every provider (DeepSeek's tokenizer is its own, not tiktoken), so
 * we count by character class with the ratios DeepSeek documents ("1 English character ≈ 0.3
 * token, 1 Chinese character ≈ 0.6 token"). That is above OpenAI's rule of thumb of ~4 characters
 * a token (0.25) for English and code, so the estimate errs high for both. Other non-ASCII UTF-16
 * units (emoji halves, Cyrillic, accents in odd scripts) count a whole token each. Each message
 * adds a few tokens of framing. The turn raises the estimate further when the provider reports
 * more prompt tokens than we counted (see `calibrate`).
 */
// In tenths of a token, so the sum stays exact.
const ASCII = 3;
const CJK = 6;
const OTHER = 10;
const PER_MESSAGE = 4;

function isCjk(c: number): boolean {
  return (
    (c >= 0x2e80 && c <= 0x9fff) || // radicals, kana, CJK unified ideographs
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0xf900 && c <= 0xfaff) || // CJK compatibility ideographs
    (c >= 0xff00 && c <= 0xffef) // full-width forms
  );
}

/** Estimated tokens of a text. */
export function estimateTextTokens(text: string): number {
  let t = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    t += c < 0x80 ? ASCII : isCjk(c) ? CJK : OTHER;
  }
  return Math.ceil(t / 10);
}

/** Counts of stored messages, which never change: every request re-counts the whole view. */
const counted = new WeakMap<ChatMessage, number>();

/** Estimated tokens of one message as sent: its content, plus every other field (tool calls, reasoning) as JSON. */
export function estimateMessageTokens(m: ChatMessage): number {
  const known = counted.get(m);
  if (known !== undefined) return known;
  const { content, ...rest } = m;
  let n = PER_MESSAGE + estimateTextTokens(content ?? '');
  if (m.role === 'tool' && (m.image || m.image_elided)) {
    // Issue 28: a picture counts as the provider reads it; an elided one as its note's few words.
    const { image, image_elided: _elided, ...fields } = rest as Omit<typeof m, 'content'>;
    n += estimateTextTokens(JSON.stringify(fields)) + (image ? imageTokens(image.width, image.height) : 30);
  } else n += estimateTextTokens(JSON.stringify(rest));
  counted.set(m, n);
  return n;
}

/**
 * A picture's tokens (issue 28): Anthropic's documented `width × height / 750`, which is above
 * OpenAI's tile count for the sizes the screenshot tool sends. Its base64 text is not what is
 * counted: the provider reads the picture, not the characters.
 */
export const imageTokens = (width: number, height: number): number => Math.ceil((width * height) / 750);

/** What a request costs besides its messages: the system prompt and the tool schemas. */
export function estimateFixedTokens(system: string, tools: readonly unknown[]): number {
  return (
    PER_MESSAGE + estimateTextTokens(system) + (tools.length ? estimateTextTokens(JSON.stringify(tools)) : 0)
  );
}

/** Estimated prompt tokens of a whole request. */
export function estimateRequestTokens(req: {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly unknown[];
}): number {
  let n = estimateFixedTokens(req.system, req.tools);
  for (const m of req.messages) n += estimateMessageTokens(m);
  return n;
}

/**
 * The factor by which the estimate fell short of what the provider counted, never below 1 (a
 * provider that reports fewer tokens leaves the estimate as it is: erring high is safe) and never
 * above 4 (a nonsense usage figure must not make every request compact).
 */
export function calibrate(current: number, estimated: number, reported: number | undefined): number {
  if (!reported || estimated <= 0) return current;
  return Math.min(4, Math.max(current, reported / estimated));
}
