import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { encodeRecord, parseRecord } from '../../store/parse-record.ts';
import { isCommitId } from './run-git.ts';

type WsCtx = Pick<Ctx, 'redis' | 'keys'>;

/** A ticket's checkout as recorded in Redis (`ticketWorkspace`). */
export const WorkspaceSchema = z.object({
  repo: z.string(),
  cloneUrl: z.string(),
  /** The checkout: `WORKSPACE_DIR/<prefix>/<ticket>`. */
  dir: z.string(),
  /** The ticket's own HOME for commands, outside the checkout. */
  home: z.string(),
  branch: z.string(),
  /** The repository's default branch: the PR's base. */
  base: z.string(),
  /**
   * The base branch's commit when the checkout was made, as fetched into the host's mirror:
   * trusted content (AGENTS.md, `.fleet/`) is read from this tree only (issue 13).
   */
  baseSha: z.string().optional(),
});
export type Workspace = z.infer<typeof WorkspaceSchema>;

/**
 * What the ticket's branch is compared with: the base commit the host recorded when it made the
 * checkout. The checkout's own `origin/<base>` is the sandbox's to move (`git update-ref`), and a
 * rule read against it could be made to see no commits and no changed files (R-C6). Records from
 * before `baseSha` have only that ref.
 */
export function baseRef(ws: Pick<Workspace, 'base' | 'baseSha'>): string {
  return ws.baseSha && isCommitId(ws.baseSha) ? ws.baseSha : `origin/${ws.base}`;
}

/**
 * The owner of the workspace record (issue 20): the ticket's checkout, or undefined before the
 * first. A record failing its schema is logged and thrown as `StoredRecordError`.
 */
export async function loadWorkspace(
  ctx: WsCtx & Pick<Ctx, 'log'>,
  ticketId: string,
): Promise<Workspace | undefined> {
  const key = ctx.keys.ticketWorkspace(ticketId);
  const raw = await ctx.redis.get(key);
  return raw ? parseRecord(ctx, WorkspaceSchema, raw, key) : undefined;
}

export async function saveWorkspace(
  ctx: WsCtx & Partial<Pick<Ctx, 'log'>>,
  ticketId: string,
  ws: Workspace,
): Promise<void> {
  // Issue 31: `cloneUrl` and `base` come from GitHub's answer; one lacking them is refused here.
  const key = ctx.keys.ticketWorkspace(ticketId);
  await ctx.redis.set(key, encodeRecord(ctx, WorkspaceSchema, ws, key));
}
