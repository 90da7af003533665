/**
 * What GitHub says about the caller itself: `GET /user` for a token (a classic token's scopes in
 * `X-OAuth-Scopes`, absent for fine-grained tokens) and `GET /app` for an App JWT (its
 * permissions and subscribed events; a bearer that is no live JWT is refused with 401).
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

/** `GET /app` answers only a JWT (three base64url parts) that has not expired. */
export function appReply(
  auth: string | undefined,
  slug: string,
  opts: IdentityOptions,
  now = Date.now(),
): Reply {
  const jwt = /^bearer (.+)$/i.exec(auth ?? '')?.[1] ?? '';
  let claims: { exp?: number; iss?: unknown } = {};
  try {
    const [, body] = jwt.split('.');
    claims = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
  }
  if (jwt.split('.').length !== 3 || !claims.iss)
    return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
  if (!claims.exp || claims.exp * 1000 < now)
    return {
      status: 401,
      body: {
        message:
          "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
      },
    };
  return {
    status: 200,
    body: {
      id: 1,
      slug,
      name: slug,
      permissions: opts.appPermissions ?? DEFAULT_APP_PERMISSIONS,
      events: opts.appEvents ?? DEFAULT_APP_EVENTS,
    },
  };
}
