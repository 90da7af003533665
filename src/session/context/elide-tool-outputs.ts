import type { ChatMessage, ToolCall } from '../chat-message.ts';

/** Outputs up to this many characters are kept whole: eliding them would save little. */
export const ELIDE_OVER_CHARS = 1500;
const HEAD_CHARS = 500;
const TAIL_CHARS = 400;
const ARGS_CHARS = 200;

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/**
 * A long tool output as the view shows it once elided (R-H2): its head and tail, and a note that
 * says how much was cut and which call brings it back: for a page of `read_file`, the call that
 * reads exactly the lines cut (`read_file({"path":…,"offset":…,"limit":…})`, issue 28). Only the
 * content changes; the message keeps its `tool_call_id`, so it still answers its call.
 */
export function elideToolOutput(
  m: ToolMessage,
  messages: readonly ChatMessage[],
  index: number,
): ToolMessage {
  if (m.content.length <= ELIDE_OVER_CHARS) return m;
  const cut = m.content.length - HEAD_CHARS - TAIL_CHARS;
  const call = callOf(messages, index, m.tool_call_id);
  const again =
    (call && readCutLines(call, m.content)) ??
    (call
      ? `call ${call.function.name}(${clip(call.function.arguments || '{}')}) again`
      : 'run the same tool call again');
  const note = `\n[… ${cut} characters of this output were cut to keep the context small; to see them, ${again}]\n`;
  return { ...m, content: m.content.slice(0, HEAD_CHARS) + note + m.content.slice(-TAIL_CHARS) };
}

/** The tool call a tool message answers: in the nearest assistant message before it. */
function callOf(messages: readonly ChatMessage[], index: number, id: string): ToolCall | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'assistant') return m.tool_calls?.find((c) => c.id === id);
  }
  return undefined;
}

/** The line number of the numbered `read_file` row holding character `pos` (`   120\t…`). */
function rowNumber(content: string, pos: number): number | undefined {
  const start = content.lastIndexOf('\n', pos - 1) + 1;
  const m = /^ *(\d+)\t/.exec(content.slice(start, start + 16));
  return m ? Number(m[1]) : undefined;
}

/** For a `read_file` page: the call that reads exactly the rows cut, or undefined. */
function readCutLines(call: ToolCall, content: string): string | undefined {
  if (call.function.name !== 'read_file') return undefined;
  let path: unknown;
  try {
    path = (JSON.parse(call.function.arguments || '{}') as { path?: unknown }).path;
  } catch {
    return undefined;
  }
  // The first row with a character cut: a row whose line end is the first cut character is whole.
  const first = rowNumber(content, HEAD_CHARS + 1);
  const last = rowNumber(content, content.length - TAIL_CHARS - 1);
  if (typeof path !== 'string' || !first || !last || last < first) return undefined;
  return `call read_file(${clip(JSON.stringify({ path, offset: first, limit: last - first + 1 }))})`;
}

const clip = (s: string) => (s.length > ARGS_CHARS ? `${s.slice(0, ARGS_CHARS)}…` : s);

/** Whether a tool result after message `i` carries a picture (issue 28). */
export function hasLaterImage(messages: readonly ChatMessage[], i: number): boolean {
  for (let j = i + 1; j < messages.length; j++) {
    const m = messages[j];
    if (m?.role === 'tool' && m.image) return true;
  }
  return false;
}

/**
 * A tool result's picture elided from the view (issue 28): only the newest picture stays whole,
 * an older one is named by its size where it was (`image_elided`), and the text stays as it is.
 */
export function elideToolImage(m: ToolMessage): ToolMessage {
  if (!m.image) return m;
  const { image, ...rest } = m;
  return { ...rest, image_elided: { width: image.width, height: image.height } };
}
