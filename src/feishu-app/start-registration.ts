import { randomBytes } from 'node:crypto';
import type { Ctx } from '../context.ts';
import { accountsUrlOf } from './accounts-url.ts';
import { qrDataUrl } from './qr-image.ts';
import { beginRegistration } from './registration-client.ts';
import { registrationLink } from './registration-link.ts';
import { saveRegistration } from './registration-store.ts';

export type StartResult =
  | { kind: 'started'; id: string; link: string; qr: string; expiresAt: number; intervalMs: number }
  | { kind: 'refused'; error: string; description: string }
  | { kind: 'unreachable'; message: string };

/**
 * Begins a registration at the accounts host of `FEISHU_DOMAIN` (issue 33 item 6): Feishu's
 * device code is kept server-side under a fresh id bound to the panel session; the page gets the
 * id, the link with the bot's needs preset, and the link as a QR code.
 */
export async function startRegistration(
  ctx: Pick<Ctx, 'config' | 'redis' | 'keys' | 'log' | 'now'>,
  sessionId: string,
  name: string,
): Promise<StartResult> {
  const base = accountsUrlOf(ctx.config.FEISHU_DOMAIN);
  const begun = await beginRegistration(base);
  if (begun.kind !== 'begun') return begun;
  const link = registrationLink(begun.verificationUri, name);
  const qr = qrDataUrl(link);
  const id = randomBytes(18).toString('base64url');
  const expiresAt = ctx.now() + begun.expiresInMs;
  await saveRegistration(ctx, id, {
    sessionId,
    deviceCode: begun.deviceCode,
    base,
    intervalMs: begun.intervalMs,
    expiresAt,
    switched: false,
  });
  return { kind: 'started', id, link, qr, expiresAt, intervalMs: begun.intervalMs };
}
