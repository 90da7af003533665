import type { Context } from 'hono';
import { noteIgnoredEvent, noteRefusedDelivery } from '../src/cards/edge-events.ts';
import { ingest } from '../src/cards/ingest.ts';
import { botIdentity } from '../src/channels/github/bot-identity.ts';
import { githubHostsFor } from '../src/channels/github/client.ts';
import { githubEdgeEvent } from '../src/channels/github/edge-event.ts';
import { parseGitHubEvent } from '../src/channels/github/parse-event.ts';
import { githubObjectTime, githubReplayKey } from '../src/channels/github/replay-key.ts';
import { signatureVerifier } from '../src/channels/github/verify-signature.ts';
import type { Ctx } from '../src/context.ts';
import { HttpError } from '../src/errors/http-error.ts';
import { parseJsonBody, readRawBody } from '../src/web/raw-body.ts';
import type { WebhookAnswer, WebhookIntake } from './webhook-intake.ts';

/**
 * POST /webhooks/github (R-A2, CONTRACT "HTTP"): verify the signature over the raw bytes, then
 * parse, build a card and ingest it; 401 on a bad or missing signature, 400 on a malformed body
 * or missing headers, 202 otherwise — ignored event types included. Nothing slower than Redis
 * (and, once per process, the bot-login lookup) runs before the answer. Shared by the Hono route
 * and the `node:http` fast path (`fast-webhooks.ts`, issue 18).
 */
export function githubIntake(ctx: Ctx): WebhookIntake {
  const secret = ctx.config.GITHUB_WEBHOOK_SECRET;
  if (!ctx.config.githubEnabled || !secret) {
    return async () => {
      throw new HttpError(503, 'channel_off', 'GitHub channel is off: no webhook secret or credentials');
    };
  }
  const verify = signatureVerifier(secret);
  const identity = botIdentity(ctx.config, ctx.log);
  // Warm the login cache now, so the first webhook doesn't wait for the API.
  identity.login().catch((err: unknown) => ctx.log.warn({ err }, 'github bot login lookup failed'));
  const githubHosts = githubHostsFor(ctx.config.GITHUB_API_URL);

  return async (raw, header): Promise<WebhookAnswer> => {
    const started = performance.now();
    if (!verify(raw, header('x-hub-signature-256'))) {
      await noteRefusedDelivery(
        ctx,
        'github',
        'signature check failed: X-Hub-Signature-256 missing or wrong',
      );
      throw new HttpError(401, 'bad_signature', 'missing or invalid X-Hub-Signature-256');
    }
    const event = header('x-github-event');
    const delivery = header('x-github-delivery');
    if (!event || !delivery) {
      throw new HttpError(400, 'missing_header', 'X-GitHub-Event and X-GitHub-Delivery are required');
    }
    const payload = parseJsonBody(raw);
    const botLogin = await identity.login().catch(() => {
      throw new HttpError(
        503,
        'identity_unknown',
        'the bot login could not be looked up; set GITHUB_BOT_LOGIN',
      );
    });
    const outcome = parseGitHubEvent(event, delivery, payload, { botLogin, githubHosts });
    if (outcome.kind === 'invalid') throw new HttpError(400, 'unexpected_payload', outcome.message);
    const result =
      outcome.kind === 'card'
        ? await ingest(ctx, outcome.draft, {
            replayKey: githubReplayKey(event, payload),
            objectAt: githubObjectTime(payload),
            answerFirst: true,
          })
        : undefined;
    ctx.metrics.ingestSeconds.observe({ source: 'github' }, (performance.now() - started) / 1000);
    if (outcome.kind === 'ignored') {
      await noteIgnoredEvent(
        ctx,
        githubEdgeEvent(event, delivery, payload),
        `not handled: ${outcome.reason}`,
      );
      return { status: 202, body: { ok: true, ignored: outcome.reason } };
    }
    if (!result) return { status: 202, body: { ok: true, ignored: '' } };
    // Issue 31: a 2xx all the same (CONTRACT), so GitHub counts it delivered; nothing was stored.
    if (result.kind === 'rate_limited')
      return { status: 202, body: { ok: true, status: result.kind, limit: result.scope } };
    const cardId = result.kind === 'new' ? result.card.id : result.cardId;
    return { status: 202, body: { ok: true, status: result.kind, card: cardId } };
  };
}

/** The Hono route over {@link githubIntake}. */
export function githubWebhook(intake: WebhookIntake): (c: Context) => Promise<Response> {
  return async (c) => {
    const raw = await readRawBody(c);
    const answer = await intake(raw, (name) => c.req.header(name));
    return c.json(answer.body, answer.status);
  };
}
