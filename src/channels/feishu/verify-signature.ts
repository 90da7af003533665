import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../../errors/http-error.ts';

/** Feishu signs each push with its send time; older or newer than this is a replay (R-A1). */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

export type SignatureHeaders = {
  signature: string | undefined;
  timestamp: string | undefined;
  nonce: string | undefined;
};

/** `X-Lark-Signature`: sha256 hex of timestamp + nonce + encrypt key + the exact body bytes. */
export function feishuSignature(timestamp: string, nonce: string, encryptKey: string, body: Buffer): string {
  return createHash('sha256')
    .update(timestamp + nonce + encryptKey)
    .update(body)
    .digest('hex');
}

/**
 * Checks a push's signature over the raw body before anything parses it (R-A1). The SDK's
 * dispatcher re-serializes the parsed body (so real pushes can fail), answers 200 on a mismatch and
 * never looks at the timestamp; this throws 401 instead.
 *
 * Returns `unsigned` when no signature header came at all: Feishu sends the URL-verification
 * challenge without one, so the caller may answer that (and only that) after decrypting it.
 */
export function verifyFeishuSignature(
  h: SignatureHeaders,
  body: Buffer,
  encryptKey: string,
  now: number,
): 'verified' | 'unsigned' {
  if (!h.signature && !h.timestamp && !h.nonce) return 'unsigned';
  if (!h.signature || !h.timestamp || !h.nonce) {
    throw new HttpError(
      401,
      'signature_missing',
      'X-Lark-Signature, -Request-Timestamp and -Request-Nonce are all required',
    );
  }
  const sentAt = Number(h.timestamp) * 1000;
  if (!Number.isFinite(sentAt) || Math.abs(now - sentAt) > MAX_CLOCK_SKEW_MS) {
    throw new HttpError(401, 'stale_timestamp', 'X-Lark-Request-Timestamp is more than 5 minutes off');
  }
  const expected = Buffer.from(feishuSignature(h.timestamp, h.nonce, encryptKey, body));
  const given = Buffer.from(h.signature.toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new HttpError(401, 'bad_signature', 'X-Lark-Signature does not match the body');
  }
  return 'verified';
}
