/**
 * A delivery failed. `permanent` failures (4xx other than 429) are kept as failed and counted,
 * never retried; the rest retry with back-off, waiting at least `retryAfterMs` when the server
 * said so (`Retry-After`, Feishu rate-limit codes).
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError' as const;
  readonly code = 'delivery_failed';
  readonly permanent: boolean;
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  constructor(message: string, permanent: boolean, retryAfterMs?: number, status?: number) {
    super(message);
    this.permanent = permanent;
    this.retryAfterMs = retryAfterMs;
    this.status = status;
  }
}

export const isDeliveryError = (e: unknown): e is DeliveryError =>
  e instanceof DeliveryError || (e instanceof Error && e.name === 'DeliveryError');

/** Parses a `Retry-After` header (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
