import { Webhooks } from '@octokit/webhooks';

/**
 * Checks `X-Hub-Signature-256` (HMAC-SHA256 of the exact body bytes, constant-time compare) with
 * `@octokit/webhooks`, before anything parses the body (R-A2). A missing header or empty body is
 * simply not verified.
 */
export function signatureVerifier(
  secret: string,
): (raw: Buffer, signature: string | undefined) => Promise<boolean> {
  const webhooks = new Webhooks({ secret });
  return async (raw, signature) => {
    if (!signature || raw.length === 0) return false;
    try {
      return await webhooks.verify(raw.toString('utf8'), signature);
    } catch {
      return false;
    }
  };
}
