import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../kit/app.ts';
import { freePort } from '../kit/local-net.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { startBotProcess } from '../kit/worker-process.ts';

/** Preloaded into the bot: on exit it prints `lark-sdk-loaded: true|false`. */
const PROBE = fileURLToPath(new URL('../fixtures/node/report-lark-sdk.mjs', import.meta.url));

const prefix = ownedPrefixes();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sy-lark-lazy-'));
  writeFileSync(join(dir, 'empty.env'), '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Lark SDK loads only when Feishu is configured (issue 46 item 7)', () => {
  it('the probe sees the SDK in a process that loads it', async () => {
    const out = await new Promise<string>((resolve) =>
      execFile(
        process.execPath,
        ['--import', PROBE, '--input-type=module', '-e', "await import('@larksuiteoapi/node-sdk')"],
        { cwd: fileURLToPath(new URL('../../', import.meta.url)) },
        (_err, _stdout, stderr) => resolve(stderr),
      ),
    );
    expect(out).toContain('lark-sdk-loaded: true');
  });

  it('npm start with GitHub only starts, answers /readyz and stops without ever loading it', async () => {
    const port = await freePort();
    const bot = startBotProcess({
      NODE_OPTIONS: `--import=${PROBE}`,
      ENV_FILE: join(dir, 'empty.env'),
      LOG_LEVEL: 'info',
      REDIS_URL: redisUrl(),
      KEY_PREFIX: prefix(),
      PORT: String(port),
      WORKSPACE_DIR: join(dir, 'workspaces'),
      GITHUB_TOKEN: 'ghp_lazy_sdk_test',
      GITHUB_WEBHOOK_SECRET: 'lazy-sdk-webhook-secret',
      GITHUB_API_URL: 'http://127.0.0.1:9',
    });
    try {
      await waitFor(() => bot.output().includes('listening on'), 'the bot listening', 90_000);
      expect(bot.output()).toContain('github on');
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      expect(await bot.stop()).toBe(0);
    }
    expect(bot.output()).toContain('lark-sdk-loaded: false');
  }, 120_000);
});
