import { createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appJwt } from '../../../src/channels/github/app-jwt.ts';
import { signatureVerifier } from '../../../src/channels/github/verify-signature.ts';
import { signGitHubBody } from '../../kit/github-webhook.ts';

describe('signatures', () => {
  const verify = signatureVerifier('s3cret');

  it('R-A2: X-Hub-Signature-256 over the exact bytes verifies; any other byte, secret or form does not', async () => {
    const body = Buffer.from('{"zen":"ok"}');
    expect(await verify(body, signGitHubBody('s3cret', body))).toBe(true);
    expect(await verify(Buffer.from('{"zen":"ok"} '), signGitHubBody('s3cret', body))).toBe(false);
    expect(await verify(body, signGitHubBody('other', body))).toBe(false);
    expect(await verify(body, signGitHubBody('s3cret', body).replace('sha256=', 'sha1='))).toBe(false);
    expect(await verify(body, undefined)).toBe(false);
    expect(await verify(Buffer.alloc(0), signGitHubBody('s3cret', ''))).toBe(false);
  });

  it('an App JWT is RS256-signed by the private key, issued by the App id, valid ten minutes', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString().replace(/\n/g, '\\n');
    const jwt = appJwt('123', pem, 1_700_000_000_000);
    const [head = '', body = '', sig = ''] = jwt.split('.');
    expect(
      createVerify('RSA-SHA256').update(`${head}.${body}`).verify(publicKey, Buffer.from(sig, 'base64url')),
    ).toBe(true);
    expect(JSON.parse(Buffer.from(body, 'base64url').toString())).toEqual({
      iat: 1_699_999_940,
      exp: 1_700_000_540,
      iss: '123',
    });
  });
});
