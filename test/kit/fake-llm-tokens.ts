import type { RecordedMessage, RecordedRequest } from './fake-llm-request.ts';

/**
 * How the fake model counts prompt tokens: about four characters a token over the prompt as the
 * model would read it (tools, then the messages in order). Rough, but stable and monotonic, which
 * is what cache-hit and context-window checks need.
 */
export const CHARS_PER_TOKEN = 4;

export const fakeTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

/**
 * The request's prompt as one string, in reading order, the way a chat template lays it out. With
 * DeepSeek thinking on, `reasoning_content` counts only on assistant messages that called tools:
 * elsewhere the API ignores it (its "Thinking Mode" guide).
 */
export function promptText(req: RecordedRequest): string {
  const parts = [JSON.stringify(req.tools)];
  for (const m of req.messages) parts.push(messageText(m));
  return parts.join('\n');
}

function messageText(m: RecordedMessage): string {
  const calls = m.tool_calls?.length ? JSON.stringify(m.tool_calls) : '';
  const reasoning = calls && typeof m.reasoning_content === 'string' ? m.reasoning_content : '';
  return `<|${m.role}${m.tool_call_id ? `:${m.tool_call_id}` : ''}|>${reasoning}${m.content ?? ''}${calls}`;
}

/** Length of the common prefix of two strings. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * A provider's prefix cache as the fake keeps it (issue 12): a request hits the tokens it shares,
 * from the start, with the previous request of the same session. A session is the conversation
 * that starts with the same first user message under the same model (a ticket's executor starts
 * with its first card; the main session with its first candidate), which is what stays put while a
 * transcript grows.
 */
export function createPrefixCache() {
  const last = new Map<string, string>();
  return {
    /** Prompt tokens and the cache hits among them; remembers this prompt for the session's next request. */
    measure(req: RecordedRequest): { promptTokens: number; cacheHitTokens: number } {
      const text = promptText(req);
      const session = `${req.model}\n${req.messages.find((m) => m.role === 'user')?.content ?? ''}`;
      const before = last.get(session);
      last.set(session, text);
      const shared = before === undefined ? 0 : commonPrefix(before, text);
      return { promptTokens: fakeTokens(text), cacheHitTokens: Math.floor(shared / CHARS_PER_TOKEN) };
    },
  };
}
