import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { parseRecord, readRecord } from '../../store/parse-record.ts';

type C = Pick<Ctx, 'redis' | 'keys' | 'log'>;

/** A verification the executor ran: the command, its exit code, and the HEAD it ran at (R-C6). */
export const VerificationSchema = z.object({
  command: z.string(),
  exitCode: z.number().nullable(),
  sha: z.string(),
  /** Uncommitted changes at the time: then it did not verify `sha` alone. */
  dirty: z.boolean(),
  at: z.number(),
});
export type Verification = z.infer<typeof VerificationSchema>;

export const ScreenshotSchema = z.object({
  path: z.string(),
  when: z.enum(['before', 'after']),
  kind: z.enum(['png', 'jpeg']),
  sha256: z.string(),
  at: z.number(),
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

export const saveTicketPr = (ctx: C, ticketId: string, pr: TicketPr) =>
  ctx.redis.set(ctx.keys.ticketPr(ticketId), JSON.stringify(pr));
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

/** Files whose change is visible, so the change needs a "before" screenshot (R-C6). */
const UI_FILE =
  /\.(css|scss|sass|less|styl|html?|vue|svelte|tsx|jsx|hbs|handlebars|ejs|njk|pug|erb|jinja2?|j2|twig|mustache|liquid)$/i;
const TEMPLATE_DIR = /(^|\/)(templates?|views|layouts|components)\//i;

export const isUiFile = (path: string): boolean => UI_FILE.test(path) || TEMPLATE_DIR.test(path);

/** A PNG or JPEG by its first bytes, whatever the file is called. */
export function imageKind(head: Buffer): 'png' | 'jpeg' | undefined {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  return undefined;
}
