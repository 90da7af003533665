import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLarkClient } from '../../../src/channels/feishu/lark-client.ts';
import { createGitHubClient } from '../../../src/channels/github/client.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/logger.ts';
import { secretValuesOf } from '../../../src/redact-log.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';

/** A real logger at `debug` whose lines are kept in memory. */
function capturedLogger(secrets: string[] = []) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const log = createLogger('debug', {}, { secrets, destination });
  return { log, text: () => lines.join('') };
}

const send = (client: ReturnType<typeof createLarkClient>) =>
  client.im.message
    .create({
      params: { receive_id_type: 'chat_id' },
      data: { receive_id: 'oc_1', msg_type: 'text', content: '{"text":"hi"}' },
    })
    .catch(() => undefined);

/** Issue 14 "secrets hygiene": no credential reaches the log, whatever logs it. */
describe('logs carry no secrets', () => {
  let feishu: FakeFeishu;
  beforeAll(async () => {
    feishu = await startFakeFeishu({ appSecret: 'feishu-app-secret-3c1f9a' });
  });
  afterAll(() => feishu.close());

  it('at LOG_LEVEL=debug a failed Lark token request does not log the app secret or the tenant token', async () => {
    const config = loadConfig({
      FEISHU_APP_ID: feishu.appId,
      FEISHU_APP_SECRET: feishu.appSecret,
      FEISHU_ENCRYPT_KEY: 'redaction-encrypt-key',
      FEISHU_DOMAIN: feishu.url,
    });
    const { log, text } = capturedLogger(secretValuesOf(config));
    const client = createLarkClient(config, log);
    feishu.fail(1, { status: 500 }, /auth/);
    await send(client);
    feishu.fail(1, { status: 500 });
    await send(client);
    expect(text()).toContain('lark sdk error');
    expect(text()).toContain('status code 500');
    expect(text()).not.toContain(feishu.appSecret);
    expect(text()).not.toContain('t-fake-tenant-token');
    expect(text()).not.toMatch(/"config"/);
  });

  it('even without the secret values, the SDK error loses its request config (the body holding app_secret)', async () => {
    const { log, text } = capturedLogger();
    const client = createLarkClient(
      { FEISHU_APP_ID: feishu.appId, FEISHU_APP_SECRET: feishu.appSecret, FEISHU_DOMAIN: feishu.url },
      log,
    );
    feishu.fail(1, { status: 500 }, /auth/);
    await send(client);
    expect(text()).toContain('lark sdk error');
    expect(text()).not.toContain(feishu.appSecret);
  });

  it("an Octokit error logged whole keeps its message and status, not its request's Authorization", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'set-cookie': 'session=abc123secretcookie' });
      res.end('{"message":"boom"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const { log, text } = capturedLogger();
      const gh = createGitHubClient({
        baseUrl: `http://127.0.0.1:${port}`,
        auth: 'ghs_installationToken123',
        readRetries: 0,
      });
      const err = await gh.rest.issues
        .createComment({ owner: 'o', repo: 'r', issue_number: 1, body: 'x' })
        .catch((e) => e);
      log.error({ err }, 'comment failed');
      expect(text()).toContain('"status":500');
      expect(text()).toContain('boom');
      expect(text()).not.toContain('ghs_installationToken123');
      expect(text()).not.toContain('abc123secretcookie');
    } finally {
      server.close();
    }
  });

  it('credentials by key at any depth, private keys and secret values in messages are redacted', () => {
    const { log, text } = capturedLogger(['sk-live-model-key-42']);
    log.info(
      {
        req: { headers: { authorization: 'Bearer abcdef123456', cookie: 'sy_panel=v1.x.y.z' } },
        nested: { deeper: { app_secret: 'plain-secret-1', encrypt_key: 'enc-key-1', privateKey: 'pk' } },
        note: '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----',
        kept: 'ordinary words',
      },
      'calling the model with sk-live-model-key-42',
    );
    const out = text();
    for (const secret of [
      'abcdef123456',
      'sy_panel=v1',
      'plain-secret-1',
      'enc-key-1',
      'MIIE',
      'sk-live-model-key-42',
    ])
      expect(out).not.toContain(secret);
    expect(out).toContain('ordinary words');
    expect(out).toContain('calling the model with [redacted]');
  });

  it('the secret values of a config include every credential variable and the Redis password', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://:r3dis-pass@127.0.0.1:6379',
      GITHUB_TOKEN: 'ghp_abc',
      LLM_API_KEY: 'llm-key',
      ADMIN_TOKEN: 'a'.repeat(32),
    });
    expect(secretValuesOf(config)).toEqual(
      expect.arrayContaining(['ghp_abc', 'llm-key', 'a'.repeat(32), 'r3dis-pass']),
    );
    expect(secretValuesOf(config)).not.toContain(config.KEY_PREFIX);
  });
});
