import type { Ctx } from '../../context.ts';

type C = Pick<Ctx, 'redis' | 'keys'>;

/** Pictures one ticket may hold: a UI change needs two; the rest is room for retakes. */
export const MAX_IMAGES_PER_TICKET = 24;

// KEYS: the ticket's images. ARGV: id, bytes, cap. Count and write in one step, so two turns
// storing at once cannot pass the cap together.
const SAVE = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

/**
 * Stores a screenshot's PNG with the ticket (issue 15 "honest UI delivery"), in Redis so any web
 * process shows it (R-H7). False when the ticket already holds `MAX_IMAGES_PER_TICKET`.
 */
export async function saveScreenshotImage(
  ctx: C,
  ticketId: string,
  id: string,
  png: Buffer,
): Promise<boolean> {
  const saved = await ctx.redis.eval(
    SAVE,
    1,
    ctx.keys.ticketScreenshotImages(ticketId),
    id,
    png,
    String(MAX_IMAGES_PER_TICKET),
  );
  return saved === 1;
}

/** A stored screenshot's PNG, or undefined. */
export async function screenshotImage(ctx: C, ticketId: string, id: string): Promise<Buffer | undefined> {
  return (await ctx.redis.hgetBuffer(ctx.keys.ticketScreenshotImages(ticketId), id)) ?? undefined;
}
