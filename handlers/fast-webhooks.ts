import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import type { Ctx } from '../src/context.ts';
import { isHttpError } from '../src/errors/http-error.ts';
import { inSpan } from '../src/tracing/in-span.ts';
import { readIncomingBody } from '../src/web/raw-body.ts';
import { feishuIntake } from './feishu.ts';
import { githubIntake } from './github.ts';
import type { WebhookIntake } from './webhook-intake.ts';

/** The two webhook routes' work, built once and shared by Hono's routes and the fast path. */
export interface WebhookIntakes {
  github: WebhookIntake;
  feishu: WebhookIntake;
}

export function webhookIntakes(ctx: Ctx): WebhookIntakes {
  return { github: githubIntake(ctx), feishu: feishuIntake(ctx) };
}

/** Handled here: the request is answered. Not handled: pass it on (to Hono). */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const JSON_TYPE = 'application/json';

/**
 * `POST /webhooks/github` and `POST /webhooks/feishu` on the bare `node:http` request (issue 18):
 * no Web Request/Response, no middleware chain — about half the edge's CPU per webhook. It does
 * what the Hono routes do (`src/web/app.ts`): the body cap, the intake's refusals mapped to
 * `{ error, code }` with the rejected-webhooks counter, a 500 logged for anything else, and the
 * trace's root span `POST /webhooks/<source>` with the answer's status. Every other request
 * (other methods, paths, a trailing slash) goes to Hono.
 */
export function fastWebhooks(ctx: Ctx, intakes: WebhookIntakes): FastPath {
  return (req, res) => {
    if (req.method !== 'POST') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const source =
      path === '/webhooks/github' ? 'github' : path === '/webhooks/feishu' ? 'feishu' : undefined;
    if (!source) return false;
    void answer(ctx, intakes[source], source, path, req, res);
    return true;
  };
}

function answer(
  ctx: Ctx,
  intake: WebhookIntake,
  source: string,
  route: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const attributes = { 'http.request.method': 'POST', 'http.route': route };
  return inSpan(
    `POST ${route}`,
    attributes,
    async (span) => {
      const header = (name: string) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      };
      let status: number;
      let body: unknown;
      try {
        const raw = await readIncomingBody(req, req.headers['content-length']);
        ({ status, body } = await intake(raw, header));
      } catch (err) {
        ({ status, body } = refusal(ctx, source, route, err));
      }
      span.setAttribute('http.response.status_code', status);
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) });
      res.end(text);
    },
    { kind: SpanKind.SERVER, parent: ROOT_CONTEXT },
  );
}

/** As `app.onError` answers: an `HttpError` with its reason, anything else a logged 500. */
function refusal(ctx: Ctx, source: string, path: string, err: unknown): { status: number; body: unknown } {
  if (isHttpError(err)) {
    ctx.metrics.rejected.inc({ source, status: String(err.status) });
    return { status: err.status, body: { error: err.message, code: err.code, ...err.extra } };
  }
  ctx.metrics.errors.inc({ where: 'http' });
  ctx.log.error({ err, path }, 'request failed');
  return { status: 500, body: { error: 'internal error', code: 'internal' } };
}
