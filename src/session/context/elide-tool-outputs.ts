import type { ChatMessage, ToolCall } from '../chat-message.ts';

/** Outputs up to this many characters are kept whole: eliding them would save little. */
export const ELIDE_OVER_CHARS = 1500;
const HEAD_CHARS = 500;
const TAIL_CHARS = 400;
const ARGS_CHARS = 200;

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/**
 * A long tool output as the view shows it once elided (R-H2): its head and tail, and a note that
 * says how much was cut and which call brings it back (`read_file({"path":…})` again). Only the
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
  const again = call
    ? `call ${call.function.name}(${clip(call.function.arguments || '{}')}) again`
    : 'run the same tool call again';
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

const clip = (s: string) => (s.length > ARGS_CHARS ? `${s.slice(0, ARGS_CHARS)}…` : s);
