import { describe, expect, it } from 'vitest';
import {
  ifCheckoutIdle,
  lastCheckoutUse,
  usingCheckout,
} from '../../../src/executor/workspace/checkout-use.ts';

const dir = (name: string) => `/ws/${name}-${Math.random().toString(36).slice(2)}`;

describe('issue 19: a checkout in use is the turn’s; the sweep removes it only while idle', () => {
  it('a sweep of a checkout a turn holds answers in_use without running', async () => {
    const d = dir('held');
    let ran = false;
    const got = await usingCheckout(d, () =>
      ifCheckoutIdle(d, async () => {
        ran = true;
      }),
    );
    expect(got).toBe('in_use');
    expect(ran).toBe(false);
    expect(lastCheckoutUse(d)).toBeGreaterThan(0);
  });

  it('a turn starting while the sweep decides waits until the sweep is done', async () => {
    const d = dir('race');
    const order: string[] = [];
    let decide = () => {};
    const sweep = ifCheckoutIdle(d, async () => {
      order.push('sweep decides');
      await new Promise<void>((resolve) => {
        decide = resolve;
      });
      order.push('sweep removes');
    });
    const turn = usingCheckout(d, async () => {
      order.push('turn uses');
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['sweep decides']);
    // A second sweep meanwhile does not run either.
    expect(await ifCheckoutIdle(d, async () => 'ran')).toBe('in_use');
    decide();
    await Promise.all([sweep, turn]);
    expect(order).toEqual(['sweep decides', 'sweep removes', 'turn uses']);
  });

  it('holders share a checkout; the sweep runs again once the last lets go', async () => {
    const d = dir('shared');
    let second = () => {};
    const a = usingCheckout(d, () => new Promise<void>((resolve) => (second = resolve)));
    await usingCheckout(d, async () => {});
    expect(await ifCheckoutIdle(d, async () => 'ran')).toBe('in_use');
    second();
    await a;
    expect(await ifCheckoutIdle(d, async () => 'ran')).toBe('ran');
  });
});
