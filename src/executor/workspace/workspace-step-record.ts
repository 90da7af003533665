import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { parseRecord } from '../../store/parse-record.ts';

type StepCtx = Pick<Ctx, 'redis' | 'keys'>;

/** What a recorded workspace step says besides its bundle (issue 19 "workspaces follow their turn"). */
export const WorkspaceStepSchema = z.object({
  /** Unique per recording: a worker whose checkout was left at another id restores this one. */
  id: z.string(),
  /** The tool call that changed the checkout: its idempotency key (session and transcript index). */
  step: z.string(),
  /** The checkout's HEAD when recorded; the bundle's commit has it as parent. */
  head: z.string(),
  /** `refs/heads/<branch>` HEAD was on, or '' when detached. */
  headRef: z.string(),
  /**
   * The work tree's tree id (issue 28): a later step with the same tree, HEAD and branch changed
   * nothing and is not recorded again. Steps recorded before issue 28 have none.
   */
  tree: z.string().exactOptional(),
  at: z.coerce.number(),
});
export type WorkspaceStep = z.infer<typeof WorkspaceStepSchema>;

/** The owner of `ticketWorkspaceStep` (issue 20): the last recorded step, replaced whole. */
export async function saveWorkspaceStep(
  ctx: StepCtx,
  ticketId: string,
  step: WorkspaceStep,
  bundle: Buffer,
): Promise<void> {
  const key = ctx.keys.ticketWorkspaceStep(ticketId);
  await ctx.redis
    .multi()
    .del(key)
    .hset(key, { ...step, at: String(step.at), bundle })
    .exec();
}

/** The last recorded step without its bundle (issue 28: is a new step the same?), or undefined. */
export async function workspaceStepState(
  ctx: StepCtx,
  ticketId: string,
): Promise<Pick<WorkspaceStep, 'id' | 'head' | 'headRef' | 'tree'> | undefined> {
  const [id, head, headRef, tree] = await ctx.redis.hmget(
    ctx.keys.ticketWorkspaceStep(ticketId),
    'id',
    'head',
    'headRef',
    'tree',
  );
  if (!id || typeof head !== 'string' || typeof headRef !== 'string') return undefined;
  return { id, head, headRef, ...(tree ? { tree } : {}) };
}

/** The id of the last recorded step, or undefined when none was recorded (one small read). */
export async function workspaceStepId(ctx: StepCtx, ticketId: string): Promise<string | undefined> {
  return (await ctx.redis.hget(ctx.keys.ticketWorkspaceStep(ticketId), 'id')) ?? undefined;
}

/** The last recorded step with its bundle, or undefined; a malformed record is thrown. */
export async function loadWorkspaceStep(
  ctx: StepCtx & Pick<Ctx, 'log'>,
  ticketId: string,
): Promise<{ step: WorkspaceStep; bundle: Buffer } | undefined> {
  const key = ctx.keys.ticketWorkspaceStep(ticketId);
  const [meta, bundle] = await Promise.all([
    ctx.redis.hmget(key, 'id', 'step', 'head', 'headRef', 'at', 'tree'),
    ctx.redis.hgetBuffer(key, 'bundle'),
  ]);
  if (!meta[0] || !bundle) return undefined;
  const [id, step, head, headRef, at, tree] = meta;
  const raw = JSON.stringify({ id, step, head, headRef, at, ...(tree ? { tree } : {}) });
  return { step: parseRecord(ctx, WorkspaceStepSchema, raw, key), bundle };
}
