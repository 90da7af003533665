import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';

describe('health and admin edge', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ ADMIN_TOKEN: 'secret-token-1-0123456789abcdefghijklmn' });
  });
  afterAll(() => app.close());

  it('GET /healthz answers 200 while the process runs', async () => {
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });

  it('GET /readyz answers 200 when Redis answers', async () => {
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
  });

  it('GET /metrics speaks Prometheus text', async () => {
    const res = await fetch(`${app.url}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    expect(await res.text()).toContain('switchyard_events_in_total');
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
