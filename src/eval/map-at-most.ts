/**
 * `fn` over `items` with at most `n` calls under way at once; the answers in the items' order.
 * The eval runner's tasks (`--concurrency`) and the Eval page's reads of results files use it.
 */
export async function mapAtMost<T, R>(
  items: readonly T[],
  n: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
  return out;
}
