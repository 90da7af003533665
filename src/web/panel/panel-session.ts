import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../auth.ts';

/** The panel's session cookie. Its value is signed, never the admin token itself. */
export const SESSION_COOKIE = 'sy_panel';

/** Header a panel write must carry, matching the session's CSRF token. */
export const CSRF_HEADER = 'x-switchyard-csrf';

/** How long a sign-in lasts. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface PanelSession {
  id: string;
  expiresAt: number;
}

/**
 * The signing key, derived from `ADMIN_TOKEN`: every web process of a deployment accepts the same
 * cookies without shared state, and rotating the token signs every panel user out.
 */
const keyOf = (adminToken: string) =>
  createHmac('sha256', adminToken).update('switchyard panel session v1').digest();

const mac = (adminToken: string, what: string) =>
  createHmac('sha256', keyOf(adminToken)).update(what).digest('base64url');

/** A fresh session and its cookie value `v1.<id>.<expiresAt>.<mac>`. */
export function newSession(adminToken: string, now: number): { session: PanelSession; value: string } {
  const session = { id: randomBytes(18).toString('base64url'), expiresAt: now + SESSION_TTL_MS };
  const body = `v1.${session.id}.${session.expiresAt}`;
  return { session, value: `${body}.${mac(adminToken, body)}` };
}

/** The session a cookie value names, or null when it is forged, malformed or expired. */
export function readSession(adminToken: string, value: string, now: number): PanelSession | null {
  const parts = value.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') return null;
  const [, id = '', exp = '', given = ''] = parts;
  if (!safeEqual(given, mac(adminToken, `v1.${id}.${exp}`))) return null;
  const expiresAt = Number(exp);
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= now) return null;
  return { id, expiresAt };
}

/** The CSRF token of a session: only a page that can read `/panel/api/session` learns it. */
export const csrfTokenOf = (adminToken: string, session: PanelSession): string =>
  mac(adminToken, `csrf.${session.id}`);
