import { createVerify, type KeyObject } from 'node:crypto';

/**
 * What GitHub says about the caller itself: `GET /user` for a token (a classic token's scopes in
 * `X-OAuth-Scopes`, absent for fine-grained tokens) and `GET /app` for an App JWT (its
 * permissions and subscribed events; a bearer that is no live JWT is refused with 401, `jwtRefusal`).
 */
export interface IdentityOptions {
  /** `X-OAuth-Scopes` of the token (classic); `null`: a fine-grained token, no header. Default `repo`. */
  tokenScopes?: string | null;
  appPermissions?: Record<string, string>;
  appEvents?: string[];
}

export const DEFAULT_APP_PERMISSIONS = {
  contents: 'write',
  pull_requests: 'write',
  issues: 'write',
  metadata: 'read',
  checks: 'read',
};
export const DEFAULT_APP_EVENTS = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review',
  'pull_request',
  'issues',
  'check_run',
  'check_suite',
];

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

export function userReply(login: string, opts: IdentityOptions): Reply {
  const scopes = opts.tokenScopes === undefined ? 'repo' : opts.tokenScopes;
  return {
    status: 200,
    body: { login, id: 1, type: 'User' },
    ...(scopes === null ? {} : { headers: { 'x-oauth-scopes': scopes } }),
  };
}

/** The `iss` claim of a `Bearer` JWT, unchecked; undefined when there is none. */
export function jwtIssuer(auth: string | undefined): string | undefined {
  const body = (/^bearer (.+)$/i.exec(auth ?? '')?.[1] ?? '').split('.')[1] ?? '';
  try {
    const iss = (JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { iss?: unknown }).iss;
    return iss === undefined ? undefined : String(iss);
  } catch {
    return undefined;
  }
}

const JWT_REFUSED = 'A JSON web token could not be decoded';

/**
 * GitHub's check of an App JWT on App-level routes (`/app…`, `/repos/{o}/{r}/installation`): a
 * `Bearer` RS256 token of three base64url parts with an issuer, issued no later than a minute
 * ahead, expiring in the future and at most ten minutes ahead; when the fake knows the App's
 * public key (`keys`, by App id) the signature must verify under it, and an unknown issuer is
 * refused. Undefined when GitHub would accept it, else its 401.
 */
export function jwtRefusal(
  auth: string | undefined,
  keys: Map<string, KeyObject>,
  now = Date.now(),
): Reply | undefined {
  const refuse = (message: string): Reply => ({ status: 401, body: { message } });
  const jwt = /^bearer (.+)$/i.exec(auth ?? '')?.[1] ?? '';
  const [head = '', body = '', sig = '', ...rest] = jwt.split('.');
  let header: { alg?: unknown } = {};
  let claims: { exp?: unknown; iat?: unknown; iss?: unknown } = {};
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as typeof header;
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return refuse(JWT_REFUSED);
  }
  if (rest.length || !sig || header.alg !== 'RS256' || !claims.iss) return refuse(JWT_REFUSED);
  const seconds = now / 1000;
  if (typeof claims.exp !== 'number' || claims.exp < seconds)
    return refuse(
      "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    );
  if (claims.exp > seconds + 600 + 30)
    return refuse("'Expiration time' claim ('exp') is too far in the future");
  if (typeof claims.iat !== 'number' || claims.iat > seconds + 60)
    return refuse(
      "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
    );
  if (!keys.size) return undefined;
  const key = keys.get(String(claims.iss));
  if (!key) return refuse('Integration not found');
  const valid = createVerify('RSA-SHA256')
    .update(`${head}.${body}`)
    .verify(key, Buffer.from(sig, 'base64url'));
  return valid ? undefined : refuse(JWT_REFUSED);
}

/** `GET /app` for a JWT `jwtRefusal` accepted: the App, its permissions and subscribed events. */
export function appReply(slug: string, opts: IdentityOptions, id = 1): Reply {
  return {
    status: 200,
    body: {
      id,
      slug,
      name: slug,
      permissions: opts.appPermissions ?? DEFAULT_APP_PERMISSIONS,
      events: opts.appEvents ?? DEFAULT_APP_EVENTS,
    },
  };
}
