import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';

const TOKEN = 'budgets-input-admin-token-0123456789abcdef';

/** `PUT /api/budgets` takes `ticketUsd`, `dailyUsd` or both, and refuses anything else by name. */
describe('issue 33 item 5: the budgets API refuses what it would not store', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp(
      { ADMIN_TOKEN: TOKEN, TICKET_BUDGET_USD: '3', DAILY_BUDGET_USD: '20' },
      { workers: false },
    );
  });
  afterEach(() => app.close());

  const put = (body: unknown) =>
    fetch(`${app.url}/api/budgets`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('a misspelt name or an empty body is a 400 naming the reason, and nothing is stored', async () => {
    const typo = await put({ ticket_usd: 50, dailyUSD: 500 });
    expect(typo.status).toBe(400);
    const typoBody = (await typo.json()) as { issues: { path: string; code: string }[] };
    expect(typoBody.issues).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys' }));
    expect(JSON.stringify(typoBody)).toContain('ticket_usd');
    const empty = await put({});
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain('name ticketUsd, dailyUsd or both');
    expect(await app.ctx.redis.exists(app.ctx.keys.budgets())).toBe(0);
    const view = (await (
      await fetch(`${app.url}/api/budgets`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { ticketUsd: number; dailyUsd: number; from: unknown };
    expect(view).toMatchObject({ ticketUsd: 3, dailyUsd: 20, from: 'config' });
  });

  it('one budget named is stored over the configured one, the other kept', async () => {
    const res = await put({ ticketUsd: 5 });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ticketUsd: 5, dailyUsd: 20, from: { by: expect.any(String) } });
  });
});
