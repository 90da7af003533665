import { describe, expect, it } from 'vitest';
import { feishuSignature, verifyFeishuSignature } from '../../../src/channels/feishu/verify-signature.ts';
import { isHttpError } from '../../../src/errors/http-error.ts';
import { signFeishu } from '../../kit/feishu-webhook.ts';

const KEY = 'k3y';
const body = Buffer.from('{"encrypt":"abc"}');
const now = 1_700_000_000_000;
const ts = String(now / 1000);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return isHttpError(e) ? `${e.status} ${e.code}` : String(e);
  }
}

describe('verifyFeishuSignature', () => {
  it('R-A1: sha256(timestamp + nonce + key + body) hex verifies, and matches the test kit', () => {
    const sig = feishuSignature(ts, 'n1', KEY, body);
    expect(sig).toBe(signFeishu(ts, 'n1', KEY, body));
    expect(verifyFeishuSignature({ signature: sig, timestamp: ts, nonce: 'n1' }, body, KEY, now)).toBe(
      'verified',
    );
  });

  it('R-A1: any changed byte, nonce or key is 401 bad_signature', () => {
    const sig = feishuSignature(ts, 'n1', KEY, body);
    const h = { signature: sig, timestamp: ts, nonce: 'n1' };
    expect(codeOf(() => verifyFeishuSignature(h, Buffer.from('{"encrypt":"abd"}'), KEY, now))).toBe(
      '401 bad_signature',
    );
    expect(codeOf(() => verifyFeishuSignature({ ...h, nonce: 'n2' }, body, KEY, now))).toBe(
      '401 bad_signature',
    );
    expect(codeOf(() => verifyFeishuSignature(h, body, 'other', now))).toBe('401 bad_signature');
    expect(codeOf(() => verifyFeishuSignature({ ...h, signature: 'short' }, body, KEY, now))).toBe(
      '401 bad_signature',
    );
  });

  it('R-A1: timestamps more than 5 minutes away are replays (401); within, fine', () => {
    const at = (offsetS: number) => {
      const t = String(now / 1000 + offsetS);
      return { signature: feishuSignature(t, 'n', KEY, body), timestamp: t, nonce: 'n' };
    };
    expect(codeOf(() => verifyFeishuSignature(at(-301), body, KEY, now))).toBe('401 stale_timestamp');
    expect(codeOf(() => verifyFeishuSignature(at(301), body, KEY, now))).toBe('401 stale_timestamp');
    expect(verifyFeishuSignature(at(-299), body, KEY, now)).toBe('verified');
    expect(codeOf(() => verifyFeishuSignature({ ...at(0), timestamp: 'soon' }, body, KEY, now))).toBe(
      '401 stale_timestamp',
    );
  });

  it('R-A1: no signature headers at all is "unsigned"; some but not all is 401', () => {
    expect(
      verifyFeishuSignature({ signature: undefined, timestamp: undefined, nonce: undefined }, body, KEY, now),
    ).toBe('unsigned');
    expect(
      codeOf(() =>
        verifyFeishuSignature({ signature: 'x', timestamp: ts, nonce: undefined }, body, KEY, now),
      ),
    ).toBe('401 signature_missing');
  });
});
