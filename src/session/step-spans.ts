import type { Attributes } from '@opentelemetry/api';
import type { ModelUsage } from './model-reply.ts';
import type { AnyTool } from './tool.ts';
import type { TurnRun } from './turn-run.ts';

/**
 * What the spans of a turn's steps say (issue 17), after the OpenTelemetry GenAI conventions:
 * ids, names and counts only — never a prompt, an answer or a tool's arguments (outside text).
 */
export function modelSpanName(run: TurnRun): string {
  return `chat ${run.model.model}`;
}

export function modelSpanAttributes(run: TurnRun): Attributes {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': run.model.model,
    'switchyard.session.kind': run.sessionKind,
    'switchyard.session.id': run.sessionId,
  };
}

/** Token counts of one answered request, cache hits included (R-H2). */
export function usageAttributes(usage: ModelUsage): Attributes {
  return {
    'gen_ai.usage.input_tokens': usage.promptTokens,
    'gen_ai.usage.output_tokens': usage.completionTokens,
    'switchyard.usage.cache_hit_tokens': usage.cacheHitTokens,
  };
}

/**
 * A tool call's span name and attributes. The name the model asked for is outside text: only a
 * name the session offers appears, anything else is `unknown`.
 */
export function toolSpan(
  tools: readonly AnyTool[],
  name: string,
  sessionId: string,
): { name: string; attributes: Attributes } {
  const known = tools.some((t) => t.name === name) ? name : 'unknown';
  return {
    name: `execute_tool ${known}`,
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': known,
      'switchyard.session.id': sessionId,
    },
  };
}
