import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Ctx } from '../../context.ts';
import { type PlanStep, ticketPlan } from './plan-record.ts';

const TEMPLATE = (
  await readFile(fileURLToPath(new URL('../../../prompts/context/plan.md', import.meta.url)), 'utf8')
).trim();

const MARK = { completed: '[x]', in_progress: '[>]', pending: '[ ]' } as const;

/** A plan's steps as the note after a compaction's summary shows them. */
export function renderPlan(steps: readonly PlanStep[]): string {
  const lines = steps.map((s) => `- ${MARK[s.status]} ${s.step}`).join('\n');
  return TEMPLATE.replace('{steps}', () => lines);
}

/**
 * The ticket's plan as `update_plan` last stored it (issue 48 item 4), as a note to go after a
 * compaction's summary, so the plan stays in view however many steps are summarised; undefined
 * when the executor never set one. The stored plan, not the transcript's newest call: a refused
 * call (two steps in progress, a malformed list) changed nothing and is no plan.
 */
export async function planInView(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>,
  ticketId: string,
): Promise<string | undefined> {
  const plan = await ticketPlan(ctx, ticketId);
  return plan?.steps.length ? renderPlan(plan.steps) : undefined;
}
