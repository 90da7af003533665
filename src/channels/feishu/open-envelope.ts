import { AESCipher } from '@larksuiteoapi/node-sdk';
import type { Config } from '../../config.ts';
import { HttpError } from '../../errors/http-error.ts';
import { safeEqual } from '../../web/auth.ts';
import { parseJsonBody } from '../../web/raw-body.ts';
import { type SignatureHeaders, verifyFeishuSignature } from './verify-signature.ts';

/** What a verified Feishu push turned out to be. */
export type FeishuEnvelope =
  | { type: 'challenge'; challenge: string }
  | { type: 'event'; body: Record<string, unknown> };

type EnvelopeConfig = Pick<Config, 'FEISHU_ENCRYPT_KEY' | 'FEISHU_VERIFICATION_TOKEN'>;

/**
 * Authenticates and opens one push (R-A1), in this order: signature and timestamp over the raw
 * bytes (401), JSON (400), decryption of `{ encrypt }` (400: a body that is signed but does not
 * decrypt is malformed, not forged), verification token (401), then the URL-verification
 * challenge. An unsigned push is accepted only when it is that challenge.
 */
export function openFeishuEnvelope(
  raw: Buffer,
  headers: SignatureHeaders,
  config: EnvelopeConfig,
  now: number,
): FeishuEnvelope {
  const key = config.FEISHU_ENCRYPT_KEY;
  const signed = key ? verifyFeishuSignature(headers, raw, key, now) : 'verified';
  const body = decrypted(asObject(parseJsonBody(raw)), key);
  checkToken(body, config.FEISHU_VERIFICATION_TOKEN);
  if (body.type === 'url_verification') {
    if (typeof body.challenge !== 'string')
      throw new HttpError(400, 'malformed_event', 'challenge is missing');
    return { type: 'challenge', challenge: body.challenge };
  }
  if (signed === 'unsigned') {
    throw new HttpError(401, 'signature_missing', 'X-Lark-Signature is required when an encrypt key is set');
  }
  return { type: 'event', body };
}

function decrypted(body: Record<string, unknown>, key: string | undefined): Record<string, unknown> {
  if (typeof body.encrypt !== 'string') return body;
  if (!key)
    throw new HttpError(400, 'encrypt_key_missing', 'encrypted push but FEISHU_ENCRYPT_KEY is not set');
  let plain: string;
  try {
    plain = new AESCipher(key).decrypt(body.encrypt);
  } catch {
    throw new HttpError(400, 'undecryptable', 'the encrypted body does not decrypt with FEISHU_ENCRYPT_KEY');
  }
  try {
    return asObject(JSON.parse(plain));
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw new HttpError(400, 'undecryptable', 'the decrypted body is not JSON: wrong FEISHU_ENCRYPT_KEY?');
  }
}

/** v2 events carry the token in `header.token`; v1 events and the challenge at the top. */
function checkToken(body: Record<string, unknown>, expected: string | undefined): void {
  if (!expected) return;
  const header = body.header as { token?: unknown } | undefined;
  const token = typeof header?.token === 'string' ? header.token : body.token;
  if (typeof token !== 'string' || !safeEqual(token, expected)) {
    throw new HttpError(401, 'bad_token', 'verification token does not match FEISHU_VERIFICATION_TOKEN');
  }
}

function asObject(v: unknown): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    throw new HttpError(400, 'malformed_event', 'body is not a JSON object');
  }
  return v as Record<string, unknown>;
}
