import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ChatMessage } from '../chat-message.ts';

const TEMPLATE = (
  await readFile(fileURLToPath(new URL('../../../prompts/context/plan.md', import.meta.url)), 'utf8')
).trim();

/** What `update_plan` takes (the executor's tool; only its shape matters here). */
const PlanArgs = z.object({
  steps: z.array(z.object({ step: z.string(), status: z.enum(['pending', 'in_progress', 'completed']) })),
});

const MARK = { completed: '[x]', in_progress: '[>]', pending: '[ ]' } as const;

/**
 * The newest plan the session set with `update_plan` (issue 48 item 4), as a note to go after a
 * compaction's summary, so the plan stays in view however many steps are summarised; undefined
 * when the session never set one. Read from the transcript itself, which a compaction never trims.
 */
export function planInView(messages: readonly ChatMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'assistant' || !m.tool_calls) continue;
    const call = m.tool_calls.findLast((c) => c.function.name === 'update_plan');
    if (!call) continue;
    const args = PlanArgs.safeParse(parseJson(call.function.arguments));
    if (!args.success) continue;
    const steps = args.data.steps.map((s) => `- ${MARK[s.status]} ${s.step}`).join('\n');
    return TEMPLATE.replace('{steps}', () => steps);
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
