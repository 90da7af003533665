/** What the fake model is scripted to answer (`startFakeLlm`'s replies and handlers). */

/** A tool call the fake model makes. A string `arguments` is sent verbatim (malformed JSON on demand). */
export interface FakeToolCall {
  name: string;
  arguments?: unknown;
  id?: string;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** What the fake model answers to one request. */
export type FakeReply =
  | {
      type: 'message';
      text?: string;
      toolCalls?: FakeToolCall[];
      /** The chain of thought sent with thinking on (default: a short sentence); never sent with it off. */
      reasoning?: string;
      usage?: Partial<FakeUsage>;
      /** Answer after this many milliseconds (for time-outs and wall-time budgets). */
      delayMs?: number;
      /**
       * Streamed (issue 18): the answer's chunks are spread evenly over this many milliseconds
       * after `delayMs`, as a model writes them; not streamed, the answer waits this much longer.
       */
      streamMs?: number;
      /** Streamed: wait this long before the tool call at `index` (a model thinking between calls). */
      pauseBeforeCall?: { index: number; ms: number };
      /** The `finish_reason` to send instead of the natural one (`insufficient_system_resource`). */
      finishReason?: string;
      /** Streamed: after this many events nothing more is sent, the connection held open (a stall). */
      stallAfterEvents?: number;
    }
  | { type: 'error'; status: number; message?: string; retryAfterSeconds?: number };
