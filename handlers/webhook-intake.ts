/** A webhook's answer before it is written: status and JSON body. */
export interface WebhookAnswer {
  status: 200 | 202;
  body: unknown;
}

/**
 * A webhook route's work from the raw bytes and the request headers to the answer, the same
 * whether Hono or the `node:http` fast path (issue 18) carried the request. Refusals are thrown
 * as `HttpError`s.
 */
export type WebhookIntake = (
  raw: Buffer,
  header: (name: string) => string | undefined,
) => Promise<WebhookAnswer>;
