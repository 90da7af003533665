import type { Config } from '../../config.ts';
import { HttpError } from '../../errors/http-error.ts';
import { safeEqual } from '../../web/auth.ts';
import { parseJsonBody } from '../../web/raw-body.ts';
import { larkSdk } from './lark-sdk.ts';
import { type SignatureHeaders, verifyFeishuSignature } from './verify-signature.ts';

/** What a verified Feishu push turned out to be. */
export type FeishuEnvelope =
  | { kind: 'challenge'; challenge: string }
  | { kind: 'event'; body: Record<string, unknown> };

type EnvelopeConfig = Pick<Config, 'FEISHU_ENCRYPT_KEY' | 'FEISHU_VERIFICATION_TOKEN'>;

/**
 * Issue 14: the one answer to every unsigned push that is not our challenge, whatever went wrong
 * (not JSON, bad padding, not JSON inside, wrong token, not a challenge), so an unsigned sender
 * learns nothing about our key — no padding oracle.
 */
const unsignedRefused = () =>
  new HttpError(
    401,
    'signature_missing',
    'X-Lark-Signature, -Request-Timestamp and -Request-Nonce are all required',
  );

/**
 * Authenticates and opens one push (R-A1). A signed push: signature and timestamp over the raw
 * bytes (401), JSON (400), decryption of `{ encrypt }` (400: signed but undecryptable is malformed,
 * not forged), verification token (401). An unsigned push is accepted only when it is the
 * URL-verification challenge, encrypted with our key and carrying our verification token; every
 * other unsigned push gets the same 401. `FEISHU_ENCRYPT_KEY` is required when Feishu is on.
 */
export function openFeishuEnvelope(
  raw: Buffer,
  headers: SignatureHeaders,
  config: EnvelopeConfig,
  now: number,
): FeishuEnvelope {
  const key = config.FEISHU_ENCRYPT_KEY;
  if (!key) {
    throw new HttpError(
      503,
      'channel_off',
      'Feishu events come over the long connection here (FEISHU_EVENT_MODE=ws); webhooks need FEISHU_ENCRYPT_KEY',
    );
  }
  if (verifyFeishuSignature(headers, raw, key, now) === 'unsigned') return challengeOnly(raw, config, key);
  const body = decrypted(asObject(parseJsonBody(raw)), key);
  checkToken(body, config.FEISHU_VERIFICATION_TOKEN);
  if (body.type === 'url_verification') {
    if (typeof body.challenge !== 'string')
      throw new HttpError(400, 'malformed_event', 'challenge is missing');
    return { kind: 'challenge', challenge: body.challenge };
  }
  return { kind: 'event', body };
}

/** The unsigned path: our encrypted challenge with our token, or `unsignedRefused` for anything else. */
function challengeOnly(raw: Buffer, config: EnvelopeConfig, key: string): FeishuEnvelope {
  const expected = config.FEISHU_VERIFICATION_TOKEN;
  let body: Record<string, unknown>;
  try {
    const outer = asObject(JSON.parse(raw.toString('utf8')));
    if (typeof outer.encrypt !== 'string') throw unsignedRefused();
    body = asObject(JSON.parse(new (larkSdk().AESCipher)(key).decrypt(outer.encrypt)));
  } catch {
    throw unsignedRefused();
  }
  const ok =
    expected !== undefined &&
    body.type === 'url_verification' &&
    typeof body.challenge === 'string' &&
    typeof body.token === 'string' &&
    safeEqual(body.token, expected);
  if (!ok) throw unsignedRefused();
  return { kind: 'challenge', challenge: body.challenge as string };
}

function decrypted(body: Record<string, unknown>, key: string): Record<string, unknown> {
  if (typeof body.encrypt !== 'string') return body;
  let plain: string;
  try {
    plain = new (larkSdk().AESCipher)(key).decrypt(body.encrypt);
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
