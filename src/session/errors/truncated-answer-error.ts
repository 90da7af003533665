/**
 * The model's answer hit its token cap (`max_tokens`, Anthropic's `stop_reason: max_tokens`) in
 * the middle of a tool call, so the call's input may be partial. Nothing of the answer is kept;
 * the request is retried (sampling may land shorter), and a turn that keeps hitting it fails
 * naming the cap to raise.
 */
export class TruncatedAnswerError extends Error {
  override name = 'TruncatedAnswerError' as const;
  readonly code = 'answer_truncated' as const;

  readonly toolName: string;
  readonly stopReason: string;

  constructor(toolName: string, stopReason: string) {
    super(`the model's answer stopped (${stopReason}) inside tool call "${toolName}"`);
    this.toolName = toolName;
    this.stopReason = stopReason;
  }
}
