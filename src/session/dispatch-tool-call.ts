import { z } from 'zod';
import type { ToolCall } from './chat-message.ts';
import { type AnyTool, type ToolCallContext, type ToolResult, toolError } from './tool.ts';

/**
 * Runs one model tool call: an unknown name or arguments that fail the schema answer an error
 * result saying why and run nothing (CONTRACT "Model side"); otherwise the tool's own `run`
 * decides. Exceptions from `run` propagate: they mean the infrastructure failed, not the model.
 */
export async function dispatchToolCall(
  tools: readonly AnyTool[],
  call: ToolCall,
  ctx: ToolCallContext,
): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.function.name);
  if (!tool) {
    const known = tools.map((t) => t.name).join(', ') || 'none';
    return toolError(`unknown tool "${call.function.name}"; the tools are: ${known}`);
  }
  const raw = parseJson(call.function.arguments);
  if (!raw.ok) return toolError(`arguments of ${tool.name} are not valid JSON: ${raw.error}`);
  const parsed = tool.parameters.safeParse(raw.value);
  if (!parsed.success) {
    return toolError(
      `invalid arguments for ${tool.name}, nothing was done:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return tool.run(parsed.data, ctx);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  // Some models send "" for a call without arguments.
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** How a result reads to the model as the tool message's content. */
export function toolResultText(result: ToolResult): string {
  return result.ok ? result.content : `Error: ${result.error}`;
}
