import { describe, expect, it } from 'vitest';
import { claimConversation, releaseConversation } from '../../../src/router/conversation-claim.ts';
import { testRedis } from '../../kit/redis.ts';

/** `takeOrKeepLease` through its owner, the conversation claim (issue 18): held by one card at a time. */
describe('a lease taken or kept by its holder (takeOrKeepLease)', () => {
  const { redis, keys } = testRedis();

  it('the holder claiming again keeps it for a full term; another card is refused until it is released', async () => {
    const ctx = { redis, keys: keys() };
    const claim = ctx.keys.conversationClaim('local:room');
    expect(await claimConversation(ctx, 'local:room', 'card-a')).toBe(true);
    expect(await claimConversation(ctx, 'local:room', 'card-b')).toBe(false);
    // Its routing job retried late in the term: the same card holds it again, its term anew.
    await redis.pexpire(claim, 1_000);
    expect(await claimConversation(ctx, 'local:room', 'card-a')).toBe(true);
    expect(await redis.pttl(claim)).toBeGreaterThan(1_000);
    expect(await redis.get(claim)).toBe('card-a');
    // Another card's release leaves the holder's claim alone.
    await releaseConversation(ctx, 'local:room', 'card-b');
    expect(await claimConversation(ctx, 'local:room', 'card-b')).toBe(false);
    await releaseConversation(ctx, 'local:room', 'card-a');
    expect(await claimConversation(ctx, 'local:room', 'card-b')).toBe(true);
  });

  it('a holder whose claim lapsed and was taken by another does not get it back, nor release it', async () => {
    const ctx = { redis, keys: keys() };
    const claim = ctx.keys.conversationClaim('local:lapse');
    expect(await claimConversation(ctx, 'local:lapse', 'card-a')).toBe(true);
    await redis.del(claim); // its term ran out (a crashed routing job)
    expect(await claimConversation(ctx, 'local:lapse', 'card-b')).toBe(true);
    expect(await claimConversation(ctx, 'local:lapse', 'card-a')).toBe(false);
    await releaseConversation(ctx, 'local:lapse', 'card-a');
    expect(await redis.get(claim)).toBe('card-b');
  });
});
