/**
 * The provider refused a request for its length (R-H2). The shapes we know: OpenAI answers 400
 * with `code: "context_length_exceeded"` and "This model's maximum context length is N tokens.
 * However, your messages resulted in M tokens…"; DeepSeek answers 400 `invalid_request_error` with
 * "This model's maximum context length is N tokens. However, you requested M tokens (… in the
 * messages, … in the completion)…"; Anthropic answers 400 "prompt is too long: M tokens > N
 * maximum". Any other 400 is not this, and the turn fails on it as before.
 */
export interface ContextOverflow {
  /** The window the provider named for the prompt (less any completion budget it counted), if it did. */
  limit?: number;
  /** The tokens it counted in the request, if it said. */
  requested?: number;
}

const LENGTH_TEXT =
  /maximum context length|context[_ ]length|context window|prompt is too long|too many tokens/i;

export function contextOverflow(err: unknown): ContextOverflow | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; code?: unknown; message?: unknown };
  if (e.status !== 400) return undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.code !== 'context_length_exceeded' && !LENGTH_TEXT.test(message)) return undefined;
  const num = (re: RegExp) => {
    const m = re.exec(message);
    return m?.[1] ? Number(m[1]) : undefined;
  };
  const max =
    num(/maximum context length is (\d+)/i) ??
    num(/tokens? > (\d+) maximum/i) ??
    num(/limit of (\d+) tokens/i);
  // DeepSeek and older OpenAI models count the completion budget against the window:
  // "(X in the messages, Y in the completion)". The prompt then has the window less Y.
  const completion = num(/(\d+) in the completion/i) ?? 0;
  const limit = max !== undefined && max > completion ? max - completion : max;
  const requested =
    num(/(\d+) in the messages/i) ??
    num(/(?:requested|resulted in) (\d+) tokens/i) ??
    num(/prompt is too long: (\d+) tokens/i);
  return { ...(limit ? { limit } : {}), ...(requested ? { requested } : {}) };
}
