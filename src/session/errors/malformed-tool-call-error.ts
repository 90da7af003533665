/**
 * The model answered a tool call whose arguments are not JSON (a truncated or garbled
 * completion). Nothing of that answer is kept; the request is retried like a 5xx.
 */
export class MalformedToolCallError extends Error {
  override name = 'MalformedToolCallError' as const;
  readonly code = 'malformed_tool_call' as const;

  readonly toolName: string;
  readonly args: string;

  constructor(toolName: string, args: string) {
    super(`the model sent tool call "${toolName}" with arguments that are not JSON: ${args.slice(0, 200)}`);
    this.toolName = toolName;
    this.args = args;
  }
}
