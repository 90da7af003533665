/**
 * A per-request signal following a long-lived one (the process's shutdown). The SDK clients add
 * an abort listener to the signal they are given and never remove it, so handing them the
 * shutdown signal itself would grow that signal's listeners by one per request.
 */
export function scopedSignal(parent?: AbortSignal): { signal: AbortSignal; release: () => void } | undefined {
  if (!parent) return undefined;
  const controller = new AbortController();
  const abort = () => controller.abort(parent.reason);
  if (parent.aborted) abort();
  else parent.addEventListener('abort', abort, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', abort) };
}

/**
 * Runs one SDK request with a signal scoped to it (see `scopedSignal`), released when the
 * request settles. `options` is what both SDKs take as their per-request options.
 */
export async function withScopedSignal<T>(
  parent: AbortSignal | undefined,
  request: (options: { signal: AbortSignal } | undefined) => Promise<T>,
): Promise<T> {
  const scoped = scopedSignal(parent);
  try {
    return await request(scoped ? { signal: scoped.signal } : undefined);
  } finally {
    scoped?.release();
  }
}
