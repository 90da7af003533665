import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { parseRecord, type RecordWrite, readRecord, writeRecord } from '../../store/parse-record.ts';

type C = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/** A verification the executor ran: the command, its exit code, and the HEAD it ran at (R-C6). */
export const VerificationSchema = z.object({
  command: z.string(),
  exitCode: z.number().nullable(),
  sha: z.string(),
  /** Uncommitted changes at the time: then it did not verify `sha` alone. */
  dirty: z.boolean(),
  /**
   * The work tree it ran on, as a tree id (issue 28): it counts for any commit with this tree, so
   * tests that passed before a commit of the same content need not run again. Older records lack it.
   */
  tree: z.string().exactOptional(),
  at: z.number(),
});
export type Verification = z.infer<typeof VerificationSchema>;

/**
 * A screenshot on the ticket (R-C6, issue 15). The `screenshot` tool's pictures carry the commit
 * they show and an `id` under which their PNG is stored (`screenshot-images.ts`); records from
 * before issue 15 named a file of the checkout (`path`) and prove no commit, so they count for
 * nothing in `readinessProblem`.
 */
export const ScreenshotSchema = z.object({
  when: z.enum(['before', 'after']),
  kind: z.enum(['png', 'jpeg']),
  sha256: z.string(),
  at: z.number(),
  id: z.string().optional(),
  /** The commit whose files were served: the base commit for "before", HEAD for "after". */
  commit: z.string().optional(),
  /** Uncommitted changes were served too: the picture does not show `commit` alone. */
  dirty: z.boolean().optional(),
  url: z.string().optional(),
  serve: z.string().optional(),
  path: z.string().optional(),
});
export type Screenshot = z.infer<typeof ScreenshotSchema>;

/** The ticket's own pull request. */
export const TicketPrSchema = z.object({
  repo: z.string(),
  number: z.number(),
  nodeId: z.string(),
  url: z.string(),
});
export type TicketPr = z.infer<typeof TicketPrSchema>;

/** A list record's entries; one failing its schema is logged and left out. */
async function list<T>(ctx: C, schema: z.ZodType<T>, key: string): Promise<T[]> {
  return (await ctx.redis.lrange(key, 0, -1)).flatMap((raw) => {
    const r = readRecord(ctx, schema, raw, key);
    return r.ok ? [r.value] : [];
  });
}

export const addVerification = (ctx: C, ticketId: string, v: Verification) =>
  ctx.redis.rpush(ctx.keys.ticketVerifications(ticketId), JSON.stringify(v));
export const verifications = (ctx: C, ticketId: string) =>
  list(ctx, VerificationSchema, ctx.keys.ticketVerifications(ticketId));

export const addScreenshot = (ctx: C, ticketId: string, s: Screenshot) =>
  ctx.redis.rpush(ctx.keys.ticketScreenshots(ticketId), JSON.stringify(s));
export const screenshots = (ctx: C, ticketId: string) =>
  list(ctx, ScreenshotSchema, ctx.keys.ticketScreenshots(ticketId));

/**
 * Records the ticket's PR, from GitHub's answer: refused (nothing written) when it lacks what
 * `ticketPr` reads, so one bad answer never makes every read of the ticket fail (issue 31).
 */
export async function saveTicketPr(ctx: C, ticketId: string, pr: TicketPr): Promise<RecordWrite> {
  const key = ctx.keys.ticketPr(ticketId);
  const w = writeRecord(ctx, TicketPrSchema, pr, key);
  if (w.ok) await ctx.redis.set(key, w.json);
  return w;
}
/** The ticket's PR, or undefined; a record failing its schema throws `StoredRecordError`. */
export async function ticketPr(ctx: C, ticketId: string): Promise<TicketPr | undefined> {
  const key = ctx.keys.ticketPr(ticketId);
  const raw = await ctx.redis.get(key);
  return raw ? parseRecord(ctx, TicketPrSchema, raw, key) : undefined;
}

/** The commit a `commit_and_push` call made, by its idempotency key (a resumed call only pushes again). */
export const commitOfCall = (ctx: C, ticketId: string, callKey: string): Promise<string | null> =>
  ctx.redis.hget(ctx.keys.ticketCommits(ticketId), callKey);
export async function recordCommit(ctx: C, ticketId: string, callKey: string, sha: string): Promise<void> {
  await ctx.redis.hset(ctx.keys.ticketCommits(ticketId), callKey, sha);
}

/** A commit the bot pushed to the ticket's branch: when it first did (this host's clock) and its tree. */
const PushSchema = z.object({ at: z.number(), tree: z.string() });
export type Push = z.infer<typeof PushSchema> & { sha: string };

/**
 * Notes that the bot pushed `sha` (of tree `tree`) to the ticket's branch at `at`; the first push
 * of a commit counts. By this host's clock, which a commit's own dates, set by whoever made it, are
 * not (R-C7); kept in Redis, so a turn on another machine, or after the checkout was released,
 * knows what the branch holds (R-C6).
 */
export async function recordPush(ctx: C, ticketId: string, { sha, at, tree }: Push): Promise<void> {
  const key = ctx.keys.ticketPushes(ticketId);
  const w = writeRecord(ctx, PushSchema, { at, tree }, key);
  if (w.ok) await ctx.redis.hsetnx(key, sha, w.json);
}

/** Every commit the bot pushed to the ticket's branch; a record failing its schema is logged and left out. */
export async function pushesOf(ctx: C, ticketId: string): Promise<Push[]> {
  const key = ctx.keys.ticketPushes(ticketId);
  return Object.entries(await ctx.redis.hgetall(key)).flatMap(([sha, raw]) => {
    const r = readRecord(ctx, PushSchema, raw, `${key} ${sha}`);
    return r.ok ? [{ sha, ...r.value }] : [];
  });
}

/** Of `pushes`, the one pushed last (before `t`, when given), or undefined. */
export function lastPush(pushes: readonly Push[], t = Number.POSITIVE_INFINITY): Push | undefined {
  let last: Push | undefined;
  for (const p of pushes) if (p.at < t && (!last || p.at > last.at)) last = p;
  return last;
}
