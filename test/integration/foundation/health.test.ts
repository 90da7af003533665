import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';

const METRICS = 'metrics-token-0123456789';

describe('health and admin edge', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp({
      ADMIN_TOKEN: 'secret-token-1-0123456789abcdefghijklmn',
      METRICS_TOKEN: METRICS,
    });
  });
  afterEach(() => app.close());

  it('GET /healthz answers 200 while the process runs', async () => {
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });

  it('GET /readyz answers 200 when Redis answers', async () => {
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
  });

  it('GET /metrics speaks Prometheus text with METRICS_TOKEN, Redis memory and workspace disk included', async () => {
    const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toContain('switchyard_events_in_total');
    expect(Number(/^switchyard_redis_used_memory_bytes (\d+)/m.exec(text)?.[1])).toBeGreaterThan(0);
    expect(text).toMatch(/^switchyard_workspace_disk_bytes \d+/m);
  });

  it('issue 14: /metrics without the token, with a wrong one, or with METRICS_TOKEN unset answers 401', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}x` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('switchyard_');
    const off = await startTestApp({ METRICS_TOKEN: '' }, { workers: false });
    try {
      const res = await fetch(`${off.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'metrics_disabled' });
    } finally {
      await off.close();
    }
  });

  it('/api/* without the bearer token answers 401, with a wrong one too', async () => {
    expect((await fetch(`${app.url}/api/tickets`)).status).toBe(401);
    const wrong = await fetch(`${app.url}/api/tickets`, {
      headers: { authorization: 'Bearer nope-nope-nope' },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'unauthorized' });
  });
});
