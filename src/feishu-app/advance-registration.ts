import type { Ctx } from '../context.ts';
import { brandOfBase, larkAccountsUrlFor } from './accounts-url.ts';
import { type CreatedFeishuApp, saveCreatedFeishuApp } from './created-app.ts';
import { feishuEnvBlock } from './env-block.ts';
import { type PollAnswer, pollRegistration, type Unreachable } from './registration-client.ts';
import {
  claimPoll,
  endRegistration,
  loadRegistration,
  type Registration,
  spacePoll,
  updateRegistration,
} from './registration-store.ts';

type AdvanceCtx = Pick<Ctx, 'config' | 'redis' | 'keys' | 'log' | 'now'>;

/** Where a scan stands after one poll (issue 33 item 6). */
export type ScanState =
  | { status: 'waiting'; retryAfterMs: number; expiresAt: number }
  | { status: 'created'; app: CreatedFeishuApp; env: string }
  | { status: 'expired' }
  | { status: 'refused' }
  | { status: 'failed'; error: string; description: string }
  | { status: 'unreachable'; message: string; retryAfterMs: number }
  | { status: 'unknown' };

/** A poll claims the gate for its interval plus the longest a request may take. */
const REQUEST_ALLOWANCE_MS = 10_000;
/** RFC 8628 §3.5: after `slow_down`, every later poll waits five seconds more. */
const SLOW_DOWN_MS = 5_000;

/**
 * The pinned SDK's one domain switch: a person on a Lark tenant is polled for at Lark's accounts
 * host (once), whatever the Feishu host answered alongside.
 */
async function pollOnce(ctx: AdvanceCtx, id: string, reg: Registration) {
  const answer = await pollRegistration(reg.base, reg.deviceCode);
  const lark = larkAccountsUrlFor(reg.base);
  if (answer.kind === 'unreachable' || answer.brand !== 'lark' || reg.switched || lark === reg.base)
    return { answer, reg };
  const moved = { ...reg, base: lark, switched: true };
  await updateRegistration(ctx, id, moved);
  return { answer: await pollRegistration(moved.base, moved.deviceCode), reg: moved };
}

/**
 * One step of a scan for the panel session that began it: answers "waiting" without asking
 * Feishu while the interval Feishu set has not passed (across tabs and web processes), else polls
 * once. The app's credentials come back once: the registration ends with them, the secret goes
 * into the `.env` lines and only the secret-free record is stored.
 */
export async function advanceRegistration(
  ctx: AdvanceCtx,
  id: string,
  sessionId: string,
): Promise<ScanState> {
  const reg = await loadRegistration(ctx, id);
  if (!reg || reg.sessionId !== sessionId) return { status: 'unknown' };
  if (ctx.now() >= reg.expiresAt) {
    await endRegistration(ctx, id);
    return { status: 'expired' };
  }
  const due = await claimPoll(ctx, id, reg.intervalMs + REQUEST_ALLOWANCE_MS);
  if (due > 0) return { status: 'waiting', retryAfterMs: due, expiresAt: reg.expiresAt };
  const { answer, reg: now } = await pollOnce(ctx, id, reg);
  return settle(ctx, id, now, answer);
}

async function settle(
  ctx: AdvanceCtx,
  id: string,
  reg: Registration,
  answer: PollAnswer | Unreachable,
): Promise<ScanState> {
  const waiting = async (intervalMs: number): Promise<ScanState> => {
    await spacePoll(ctx, id, intervalMs);
    return { status: 'waiting', retryAfterMs: intervalMs, expiresAt: reg.expiresAt };
  };
  switch (answer.kind) {
    case 'unreachable':
      await spacePoll(ctx, id, reg.intervalMs);
      return { status: 'unreachable', message: answer.message, retryAfterMs: reg.intervalMs };
    case 'pending':
      return waiting(reg.intervalMs);
    case 'slow_down': {
      const slower = { ...reg, intervalMs: reg.intervalMs + SLOW_DOWN_MS };
      await updateRegistration(ctx, id, slower);
      return waiting(slower.intervalMs);
    }
    case 'credentials':
      return created(ctx, id, reg, answer);
  }
  // Every other answer ends the device code: confirmed elsewhere, refused, expired.
  if (!(await endRegistration(ctx, id))) return { status: 'unknown' };
  if (answer.kind === 'denied') return { status: 'refused' };
  if (answer.kind === 'expired') return { status: 'expired' };
  return { status: 'failed', error: answer.error, description: answer.description };
}

async function created(
  ctx: AdvanceCtx,
  id: string,
  reg: Registration,
  answer: Extract<PollAnswer, { kind: 'credentials' }>,
): Promise<ScanState> {
  // Feishu hands the secret out once per device code: it is shown even when another tab ended the
  // scan meanwhile (its expiry check), or the app would exist with its secret lost.
  await endRegistration(ctx, id);
  const brand = answer.brand === 'lark' || answer.brand === 'feishu' ? answer.brand : brandOfBase(reg.base);
  const app: CreatedFeishuApp = {
    appId: answer.appId,
    brand,
    ...(answer.openId ? { openId: answer.openId } : {}),
    createdAt: ctx.now(),
  };
  await saveCreatedFeishuApp(ctx, app);
  ctx.log.info({ appId: app.appId, brand }, 'feishu app created from the panel');
  const env = feishuEnvBlock(ctx.config, { appId: answer.appId, appSecret: answer.appSecret, brand });
  return { status: 'created', app, env };
}
