/** What the fake model records of each request it receives. */

/** One request as the fake model received it. */
export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  model: string;
  stream: boolean;
  messages: RecordedMessage[];
  tools: RecordedTool[];
  /** The first system message's text, if any. */
  system: string | undefined;
  body: Record<string, unknown>;
  /** The `usage` the fake answered with (set once it answers). */
  usage?: Record<string, unknown>;
  /** Fields the provider ignored in this request (DeepSeek: sampling fields with thinking on). */
  ignored?: string[];
  /** When the request arrived (`Date.now()`). */
  receivedAt?: number;
  /** When the answer's last byte was sent (`Date.now()`), once it was. */
  answeredAt?: number;
}

export interface RecordedMessage {
  role: string;
  /** The text; for a message sent as content parts, its text parts joined (the parts in `parts`). */
  content?: string | null;
  /** A user message sent as content parts (issue 28: pictures), as it came. */
  parts?: { type: string; text?: string; image_url?: { url: string } }[];
  reasoning_content?: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
}

export interface RecordedTool {
  type: string;
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}
