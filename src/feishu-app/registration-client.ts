import { z } from 'zod';

/** The pinned SDK's registration endpoint, on the accounts host (`accounts-url.ts`). */
export const REGISTRATION_PATH = '/oauth/v1/app/registration';

/** One request may take this long; the browser polls again after it. */
const TIMEOUT_MS = 10_000;

/** Feishu could not be asked: no connection, a time-out, or an answer that is not JSON. */
export interface Unreachable {
  kind: 'unreachable';
  message: string;
}

type Form = Record<string, string>;
type Answer = { kind: 'answer'; body: Record<string, unknown> };

/**
 * One form POST to the registration endpoint. Refusals come as JSON `{ error, error_description }`
 * with HTTP 400 (RFC 8628: `authorization_pending` too), so the body is read whatever the status.
 */
async function post(base: string, form: Form): Promise<Answer | Unreachable> {
  let res: Response;
  try {
    res = await fetch(`${base}${REGISTRATION_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { kind: 'unreachable', message: cause ?? (err as Error).name };
  }
  const text = await res.text().catch(() => '');
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && !Array.isArray(body))
      return { kind: 'answer', body: body as Record<string, unknown> };
  } catch {}
  return { kind: 'unreachable', message: `HTTP ${res.status} without a JSON body` };
}

const Refusal = z.object({ error: z.string().min(1), error_description: z.string().optional() });

const Seconds = z.number().int().positive().max(86_400);
const Begun = z.object({
  device_code: z.string().min(1).max(512),
  user_code: z.string().max(64).optional(),
  verification_uri_complete: z.url({ protocol: /^https?$/ }).max(2048),
  interval: Seconds.optional(),
  // The SDK reads `expires_in` (RFC 8628); some answers spell it `expire_in`.
  expires_in: Seconds.optional(),
  expire_in: Seconds.optional(),
});

export type BeginAnswer =
  | { kind: 'begun'; deviceCode: string; verificationUri: string; intervalMs: number; expiresInMs: number }
  | { kind: 'refused'; error: string; description: string }
  | Unreachable;

/** `action=begin` as the pinned SDK's `registerApp` sends it: a PersonalAgent app with a client secret. */
export async function beginRegistration(base: string): Promise<BeginAnswer> {
  const answer = await post(base, {
    action: 'begin',
    archetype: 'PersonalAgent',
    auth_method: 'client_secret',
    request_user_info: 'open_id',
  });
  if (answer.kind === 'unreachable') return answer;
  const { body } = answer;
  const refusal = Refusal.safeParse(body);
  if (refusal.success)
    return { kind: 'refused', error: refusal.data.error, description: refusal.data.error_description ?? '' };
  const begun = Begun.safeParse(body);
  if (!begun.success) return { kind: 'unreachable', message: 'an answer without a device code or link' };
  const b = begun.data;
  return {
    kind: 'begun',
    deviceCode: b.device_code,
    verificationUri: b.verification_uri_complete,
    intervalMs: (b.interval ?? 5) * 1000,
    expiresInMs: (b.expires_in ?? b.expire_in ?? 600) * 1000,
  };
}

const Credentials = z.object({
  client_id: z.string().min(1).max(64),
  client_secret: z.string().min(1).max(256),
});
const UserInfo = z
  .object({
    user_info: z
      .object({ open_id: z.string().max(128).optional(), tenant_brand: z.string().max(32).optional() })
      .optional(),
  })
  .catch({});

export type PollAnswer = { brand: string | undefined; openId: string | undefined } & (
  | { kind: 'credentials'; appId: string; appSecret: string }
  | { kind: 'pending' }
  | { kind: 'slow_down' }
  | { kind: 'denied' }
  | { kind: 'expired' }
  | { kind: 'refused'; error: string; description: string }
);

const KINDS: Record<string, 'pending' | 'slow_down' | 'denied' | 'expired'> = {
  authorization_pending: 'pending',
  slow_down: 'slow_down',
  access_denied: 'denied',
  expired_token: 'expired',
};

/** `action=poll` once: the app's credentials once the person confirmed, else where it stands. */
export async function pollRegistration(base: string, deviceCode: string): Promise<PollAnswer | Unreachable> {
  const answer = await post(base, { action: 'poll', device_code: deviceCode });
  if (answer.kind === 'unreachable') return answer;
  const { body } = answer;
  const info = UserInfo.parse(body).user_info;
  const who = { brand: info?.tenant_brand, openId: info?.open_id };
  const creds = Credentials.safeParse(body);
  if (creds.success)
    return { ...who, kind: 'credentials', appId: creds.data.client_id, appSecret: creds.data.client_secret };
  const refusal = Refusal.safeParse(body);
  if (!refusal.success) return { kind: 'unreachable', message: 'an answer without credentials or an error' };
  const kind = KINDS[refusal.data.error];
  if (kind) return { ...who, kind };
  return {
    ...who,
    kind: 'refused',
    error: refusal.data.error,
    description: refusal.data.error_description ?? '',
  };
}
