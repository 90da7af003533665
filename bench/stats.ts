/** The p-quantile of a sample (nearest rank). */
export function quantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** Runs `fn` for every item with at most `concurrency` at once; returns each call's duration in ms. */
export async function timed<T>(
  items: T[],
  concurrency: number,
  fn: (item: T) => Promise<unknown>,
): Promise<{ ms: number[]; totalMs: number }> {
  const ms: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        const t = performance.now();
        await fn(item);
        ms.push(performance.now() - t);
      }
    }),
  );
  return { ms, totalMs: performance.now() - start };
}
