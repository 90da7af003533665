import type { ToolCall } from '../session/chat-message.ts';

/**
 * Executor tools that only read — the checkout, the repository's sources, the chat, the prompt
 * revisions — and so may run at the same time as their neighbours in one answer (issue 28):
 * several independent reads cost one round trip, not one each.
 */
const READ_ONLY = new Set([
  'read_file',
  'list_files',
  'search_files',
  'read_card',
  'read_github',
  'read_chat',
  'read_prompt_revision',
]);

export const isReadOnlyCall = (call: ToolCall): boolean => READ_ONLY.has(call.function.name);
