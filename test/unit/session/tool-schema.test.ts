import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, toolOk } from '../../../src/session/tool.ts';
import { toFunctionTools } from '../../../src/session/tool-schema.ts';

describe('toFunctionTools', () => {
  it('R-E4: the schema the model is shown is the one code checks (required fields, enums)', () => {
    const report = defineTool({
      name: 'report',
      description: 'Report status',
      parameters: z.object({
        status: z.enum(['working', 'done', 'blocked']),
        summary: z.string(),
        human_action: z.object({ question: z.string() }).optional(),
      }),
      run: () => toolOk('ok'),
    });
    const [fn] = toFunctionTools([report]);
    expect(fn?.type).toBe('function');
    expect(fn?.function.name).toBe('report');
    expect(fn?.function.description).toBe('Report status');
    const params = fn?.function.parameters as Record<string, unknown>;
    expect(params.$schema).toBeUndefined();
    expect(params.type).toBe('object');
    expect(params.required).toEqual(['status', 'summary']);
    expect((params.properties as Record<string, { enum?: string[] }>).status?.enum).toEqual([
      'working',
      'done',
      'blocked',
    ]);
  });
});
