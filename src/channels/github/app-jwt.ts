import { createSign } from 'node:crypto';

const b64url = (v: string | Buffer): string => Buffer.from(v).toString('base64url');

/**
 * A GitHub App JWT (RS256, valid ten minutes, back-dated a minute for clock drift), used to ask
 * `GET /app` for the App's slug. Private keys pasted into `.env` often carry literal `\n`.
 */
export function appJwt(appId: string, privateKey: string, now = Date.now()): string {
  const iat = Math.floor(now / 1000) - 60;
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ iat, exp: iat + 600, iss: appId }));
  const signature = createSign('RSA-SHA256').update(`${head}.${body}`).sign(privateKey.replace(/\\n/g, '\n'));
  return `${head}.${body}.${b64url(signature)}`;
}
