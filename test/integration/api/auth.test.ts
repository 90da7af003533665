import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { call, TOKEN } from './client.ts';

const ROUTES: [string, string][] = [
  ['GET', '/prompts'],
  ['PUT', '/prompts'],
  ['GET', '/prompts/versions'],
  ['GET', '/prompts/versions/0'],
  ['POST', '/prompts/restore'],
  ['GET', '/policy'],
  ['PUT', '/policy'],
  ['GET', '/tickets'],
  ['GET', '/tickets/T1'],
  ['POST', '/tickets/T1/pause'],
  ['POST', '/tickets/T1/resume'],
  ['GET', '/cards/local-x/text'],
  ['POST', '/local/messages'],
  ['GET', '/local/messages'],
  ['GET', '/queues'],
];

describe('the admin API is behind ADMIN_TOKEN (CONTRACT "HTTP")', () => {
  let app: TestApp;
  let closed: TestApp;
  beforeEach(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
    closed = await startTestApp({}, { workers: false });
  });
  afterEach(async () => {
    await app.close();
    await closed.close();
  });

  it.each(ROUTES)(
    '%s %s answers 401 without a token and with a wrong one, and writes nothing',
    async (method, path) => {
      const body =
        method === 'GET' ? undefined : { baseRevision: 0, team: {}, overrides: {}, skills: [], text: 'hi' };
      expect(await call(app, method, path, { token: null, body })).toMatchObject({
        status: 401,
        body: { code: 'unauthorized' },
      });
      expect((await call(app, method, path, { token: `${TOKEN}x`, body })).status).toBe(401);
      expect(await app.ctx.redis.keys(`${app.ctx.keys.prefix}:prompts:*`)).toEqual([]);
      expect(await app.ctx.redis.keys(`${app.ctx.keys.prefix}:local-people:*`)).toEqual([]);
    },
  );

  it('without ADMIN_TOKEN configured every API request is refused, even one carrying a token', async () => {
    expect(await call(closed, 'GET', '/prompts', { token: 'anything' })).toMatchObject({
      status: 401,
      body: { code: 'admin_disabled' },
    });
  });

  it('the right token is let through', async () => {
    expect((await call(app, 'GET', '/queues')).status).toBe(200);
  });
});
