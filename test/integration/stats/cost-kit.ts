import type { TestApp } from '../../kit/app.ts';
import type { RecordedRequest } from '../../kit/fake-llm.ts';
import { roleOf } from '../../kit/scripted-model.ts';

export const COST_TOKEN = 'cost-test-admin-token-0123456789abcdef';

/** Calls the admin API as the panel's operator would. */
export async function api(app: TestApp, path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${app.url}/api${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${COST_TOKEN}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * DeepSeek's `deepseek-flash` list price (api-docs.deepseek.com/quick_start/pricing), written out
 * by hand in nano-dollars per token: cache miss $0.15, cache hit $0.003, output $0.60 per million
 * off-peak; twice that in the peak hours 01:00–04:00 and 06:00–10:00 UTC.
 */
function perToken(at: number): { miss: number; hit: number; out: number } {
  const h = new Date(at).getUTCHours();
  const peak = (h >= 1 && h < 4) || (h >= 6 && h < 10) ? 2 : 1;
  return { miss: 150 * peak, hit: 3 * peak, out: 600 * peak };
}

/** One answered request's cost from the usage the fake reported, in nano-dollars; 0 before it answered. */
export function handNanos(req: RecordedRequest): number {
  const u = req.usage as
    | { prompt_tokens: number; completion_tokens: number; prompt_cache_hit_tokens: number }
    | undefined;
  if (!u || req.answeredAt === undefined) return 0;
  const r = perToken(req.answeredAt);
  const hit = u.prompt_cache_hit_tokens;
  return (u.prompt_tokens - hit) * r.miss + hit * r.hit + u.completion_tokens * r.out;
}

/** The executor requests of one ticket. */
export const executorRequestsOf = (requests: RecordedRequest[], ticketId: string) =>
  requests.filter(
    (r) => roleOf(r) === 'executor' && JSON.stringify(r.messages).includes(`Ticket ${ticketId}:`),
  );

export const sumNanos = (requests: RecordedRequest[]) => requests.reduce((a, r) => a + handNanos(r), 0);
