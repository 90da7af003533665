import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { portableSchema } from './portable-schema.ts';
import type { AnyTool } from './tool.ts';

/**
 * The tools as OpenAI function definitions. The JSON Schema comes from the same zod schema that
 * checks the arguments, so what the model is told and what code accepts cannot drift (R-E4), cut
 * to the subset every provider accepts (`portableSchema`).
 */
export function toFunctionTools(tools: readonly AnyTool[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => {
    const parameters = portableSchema(
      z.toJSONSchema(t.parameters, { io: 'input' }) as Record<string, unknown>,
    );
    return { type: 'function', function: { name: t.name, description: t.description, parameters } };
  });
}
