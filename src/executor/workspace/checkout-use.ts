/**
 * Which checkouts this process is using right now (issue 19 "checkouts no turn needs are
 * removed"): a turn holds its ticket's checkout from before it is made or restored until the turn
 * settles, and the sweep removes a checkout only while nobody holds it. Keyed by the checkout's
 * absolute path, which names the deployment (key prefix) and the ticket. A turn waits for a sweep
 * of its checkout to finish; a sweep never waits for a turn, it skips the checkout.
 */
const users = new Map<string, number>();
const sweeping = new Map<string, Promise<void>>();
const lastUse = new Map<string, number>();

/** Runs `fn` holding the checkout at `dir`; several holders may share it, never with a sweep. */
export async function usingCheckout<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  for (let s = sweeping.get(dir); s; s = sweeping.get(dir)) await s;
  users.set(dir, (users.get(dir) ?? 0) + 1);
  try {
    return await fn();
  } finally {
    const left = (users.get(dir) ?? 1) - 1;
    if (left) users.set(dir, left);
    else users.delete(dir);
    lastUse.set(dir, Date.now());
  }
}

/**
 * Runs `fn` alone on the checkout at `dir` (the sweep's decision and removal), or answers
 * `in_use` at once when a turn holds it. Turns that start meanwhile wait until `fn` is done.
 */
export async function ifCheckoutIdle<T>(dir: string, fn: () => Promise<T>): Promise<T | 'in_use'> {
  if (users.get(dir) || sweeping.has(dir)) return 'in_use';
  let done = () => {};
  sweeping.set(
    dir,
    new Promise<void>((resolve) => {
      done = resolve;
    }),
  );
  try {
    return await fn();
  } finally {
    sweeping.delete(dir);
    done();
  }
}

/** When a holder of the checkout at `dir` last let it go in this process (ms since the epoch). */
export function lastCheckoutUse(dir: string): number | undefined {
  return lastUse.get(dir);
}

/** Forgets a removed checkout's last use, so the map only holds checkouts that exist. */
export function forgetCheckoutUse(dir: string): void {
  lastUse.delete(dir);
}
