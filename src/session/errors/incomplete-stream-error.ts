/**
 * A streamed answer ended without saying it was finished (no `finish_reason`): the connection
 * dropped, the request was aborted (which the `openai` package's stream reports as a quiet end),
 * or nothing more came for `LLM_STREAM_IDLE_MS` (issue 28). Nothing of it is kept (a cut answer
 * would be stored as if whole); the request is retried, or, aborted, handed over with the turn.
 */
export class IncompleteStreamError extends Error {
  override name = 'IncompleteStreamError' as const;
  readonly code = 'stream_incomplete' as const;

  constructor(detail = 'the streamed answer ended before the model finished it') {
    super(detail);
  }
}
