import { wasSeen } from '../cards/ingest.ts';
import { appJwt } from '../channels/github/app-auth.ts';
import { createGitHubClient, type GitHubClient } from '../channels/github/client.ts';
import type { Ctx } from '../context.ts';
import { claimRedelivery, releaseRedelivery } from './redelivery-claims.ts';

/** GitHub redelivers only deliveries of the last three days. */
const REDELIVERABLE_MS = 3 * 24 * 3600_000;
const MAX_PAGES = 10;

interface Delivery {
  id: number;
  guid: string;
  status_code: number;
  delivered_at: string;
}

const succeeded = (d: Delivery) => d.status_code >= 200 && d.status_code < 300;

/**
 * Issue 8, missed deliveries: GitHub never retries a failed webhook delivery. In App mode this
 * lists the App's recent deliveries (`GET /app/hook/deliveries`, App JWT) and asks for a
 * redelivery (`POST /app/hook/deliveries/{id}/attempts`) of each failed one whose GUID never
 * arrived here (`keys.seen`) and was not asked for before. Ingest dedupes by GUID, so a delivery
 * that arrives twice still makes one card. Returns how many were asked for.
 */
export async function redeliverMissed(ctx: Ctx): Promise<number> {
  const { GITHUB_APP_ID: appId, GITHUB_PRIVATE_KEY: key } = ctx.config;
  if (!ctx.config.githubEnabled || !appId || !key) return 0;
  const client = createGitHubClient({
    baseUrl: ctx.config.GITHUB_API_URL,
    auth: await appJwt(appId, key),
    log: ctx.log,
  });
  const recent = await recentDeliveries(client, ctx.now() - REDELIVERABLE_MS);
  const arrived = new Set(recent.filter(succeeded).map((d) => d.guid));
  let asked = 0;
  for (const d of recent) {
    if (succeeded(d) || arrived.has(d.guid)) continue;
    if (await wasSeen(ctx, 'github', d.guid)) continue;
    if (!(await claimRedelivery(ctx, d.guid, d.id, REDELIVERABLE_MS))) continue;
    try {
      await client.rest.apps.redeliverWebhookDelivery({ delivery_id: d.id });
      asked++;
    } catch (err) {
      // Let the next run ask again.
      await releaseRedelivery(ctx, d.guid);
      ctx.log.warn({ err, guid: d.guid }, 'github redelivery request failed');
    }
  }
  if (asked) ctx.log.info({ asked }, 'asked GitHub to redeliver missed webhooks');
  return asked;
}

/** Deliveries newest first, up to the redelivery horizon. */
async function recentDeliveries(client: GitHubClient, since: number): Promise<Delivery[]> {
  const out: Delivery[] = [];
  let pages = 0;
  for await (const page of client.paginate.iterator(client.rest.apps.listWebhookDeliveries, {
    per_page: 100,
  })) {
    const rows = page.data as Delivery[];
    out.push(...rows.filter((d) => Date.parse(d.delivered_at) >= since));
    if (++pages >= MAX_PAGES || rows.some((d) => Date.parse(d.delivered_at) < since)) break;
  }
  return out;
}
