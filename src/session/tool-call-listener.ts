import type { ToolCall } from './chat-message.ts';

/**
 * Told of each tool call as soon as it is complete in a streamed answer, before the answer ends
 * (issue 18: the acknowledgement goes out early). `index` is the call's place in the answer.
 * Clients that do not stream never call it; the answer itself still carries every call.
 */
export type ToolCallListener = (call: ToolCall, index: number) => void;
