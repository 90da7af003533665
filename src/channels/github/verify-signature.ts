import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';
/** `sha256=` and 64 hex digits. */
const SIGNATURE_LENGTH = PREFIX.length + 64;

/**
 * Checks `X-Hub-Signature-256`: HMAC-SHA256 of the exact body bytes under the webhook secret,
 * compared in constant time, before anything parses the body (R-A2). A missing or malformed
 * header or an empty body is simply not verified. The bytes are hashed as received, never
 * decoded first (issue 18: nothing the hot path doesn't need).
 */
export function signatureVerifier(secret: string): (raw: Buffer, signature: string | undefined) => boolean {
  // Imported once: an HMAC keyed by a key object skips re-importing the secret per webhook.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return (raw, signature) => {
    if (!signature || raw.length === 0) return false;
    if (signature.length !== SIGNATURE_LENGTH || !signature.startsWith(PREFIX)) return false;
    const got = Buffer.from(signature.slice(PREFIX.length), 'hex');
    const want = createHmac('sha256', key).update(raw).digest();
    // A non-hex digit ends the decoding early: a shorter buffer, never a match.
    return got.length === want.length && timingSafeEqual(got, want);
  };
}
