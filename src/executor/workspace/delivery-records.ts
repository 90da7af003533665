import type { Ctx } from '../../context.ts';

type C = Pick<Ctx, 'redis' | 'keys'>;

/** A verification the executor ran: the command, its exit code, and the HEAD it ran at (R-C6). */
export interface Verification {
  command: string;
  exitCode: number | null;
  sha: string;
  /** Uncommitted changes at the time: then it did not verify `sha` alone. */
  dirty: boolean;
  at: number;
}

export interface Screenshot {
  path: string;
  when: 'before' | 'after';
  kind: 'png' | 'jpeg';
  sha256: string;
  at: number;
}

/** The ticket's own pull request. */
export interface TicketPr {
  repo: string;
  number: number;
  nodeId: string;
  url: string;
}

const list = async <T>(ctx: C, key: string): Promise<T[]> =>
  (await ctx.redis.lrange(key, 0, -1)).map((s) => JSON.parse(s) as T);

export const addVerification = (ctx: C, ticketId: string, v: Verification) =>
  ctx.redis.rpush(ctx.keys.ticketVerifications(ticketId), JSON.stringify(v));
export const verifications = (ctx: C, ticketId: string) =>
  list<Verification>(ctx, ctx.keys.ticketVerifications(ticketId));

export const addScreenshot = (ctx: C, ticketId: string, s: Screenshot) =>
  ctx.redis.rpush(ctx.keys.ticketScreenshots(ticketId), JSON.stringify(s));
export const screenshots = (ctx: C, ticketId: string) =>
  list<Screenshot>(ctx, ctx.keys.ticketScreenshots(ticketId));

export const saveTicketPr = (ctx: C, ticketId: string, pr: TicketPr) =>
  ctx.redis.set(ctx.keys.ticketPr(ticketId), JSON.stringify(pr));
export async function ticketPr(ctx: C, ticketId: string): Promise<TicketPr | undefined> {
  const raw = await ctx.redis.get(ctx.keys.ticketPr(ticketId));
  return raw ? (JSON.parse(raw) as TicketPr) : undefined;
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
