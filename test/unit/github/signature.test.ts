import { createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appJwt } from '../../../src/channels/github/app-auth.ts';
import { signatureVerifier } from '../../../src/channels/github/verify-signature.ts';
import { signGitHubBody } from '../../kit/github-webhook.ts';

describe('signatures', () => {
  const verify = signatureVerifier('s3cret');

  it('R-A2: X-Hub-Signature-256 over the exact bytes verifies; any other byte, secret or form does not', () => {
    const body = Buffer.from('{"zen":"ok"}');
    expect(verify(body, signGitHubBody('s3cret', body))).toBe(true);
    expect(verify(Buffer.from('{"zen":"ok"} '), signGitHubBody('s3cret', body))).toBe(false);
    expect(verify(body, signGitHubBody('other', body))).toBe(false);
    expect(verify(body, signGitHubBody('s3cret', body).replace('sha256=', 'sha1='))).toBe(false);
    expect(verify(body, undefined)).toBe(false);
    expect(verify(Buffer.alloc(0), signGitHubBody('s3cret', ''))).toBe(false);
    // Malformed headers: upper-case hex is still the digest, a non-hex digit or a short one is not.
    const sig = signGitHubBody('s3cret', body);
    expect(verify(body, `sha256=${sig.slice(7).toUpperCase()}`)).toBe(true);
    expect(verify(body, `${sig.slice(0, -1)}g`)).toBe(false);
    expect(verify(body, sig.slice(0, -2))).toBe(false);
    expect(verify(body, `${sig}00`)).toBe(false);
    // Bytes that are not UTF-8 are signed and checked as bytes.
    const binary = Buffer.from([0xff, 0xfe, 0x7b, 0x80]);
    expect(verify(binary, signGitHubBody('s3cret', binary))).toBe(true);
    expect(verify(Buffer.from(binary.toString('utf8')), signGitHubBody('s3cret', binary))).toBe(false);
  });

  it('issue 16: an App JWT (@octokit/auth-app) is RS256-signed by the private key, issued by the App id, valid under ten minutes; a key with \\n escapes works', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    for (const key of [pem, pem.replace(/\n/g, '\\n')]) {
      const jwt = await appJwt('123', key);
      const [head = '', body = '', sig = ''] = jwt.split('.');
      expect(
        createVerify('RSA-SHA256').update(`${head}.${body}`).verify(publicKey, Buffer.from(sig, 'base64url')),
      ).toBe(true);
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, number>;
      expect(claims.iss).toBe('123');
      const now = Date.now() / 1000;
      expect(claims.iat).toBeLessThanOrEqual(now);
      expect(claims.exp).toBeGreaterThan(now + 60);
      expect(claims.exp).toBeLessThanOrEqual(now + 600);
    }
  });
});
