import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../kit/app.ts';
import { redisUrl } from '../kit/redis.ts';
import { SMALL, sandboxed, tcpProbe, tempCheckout } from './sandbox-kit.ts';

/** Whether this machine reaches the npm registry at all (the egress install test needs it). */
const registryReachable = await fetch('https://registry.npmjs.org/is-number', {
  signal: AbortSignal.timeout(8_000),
})
  .then((r) => r.ok)
  .catch(() => false);
if (!registryReachable)
  process.stderr.write('sandbox-network: no registry access here; the npm install test is skipped\n');

const hostAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && i.family === 'IPv4' && !i.internal)
    .map((i) => i?.address ?? '');

describe('R-H3: sandbox networking (real bubblewrap and pasta)', () => {
  let app: TestApp;
  let wide: Server;
  let widePort = 0;
  let checkout: string;
  beforeEach(async () => {
    app = await startTestApp({}, { workers: false });
    // A service listening on every interface, as a bot's web half or a database often does.
    wide = createServer((s) => s.end('WIDE-SERVICE-ANSWER\n'));
    await new Promise<void>((r) => wide.listen(0, '0.0.0.0', () => r()));
    widePort = (wide.address() as { port: number }).port;
    checkout = tempCheckout();
  });
  afterEach(async () => {
    await app.close();
    await new Promise((r) => wide.close(r));
  });

  const targets = () => {
    const redis = new URL(redisUrl());
    const bot = new URL(app.url);
    return [
      tcpProbe(redis.hostname, Number(redis.port || 6379)),
      tcpProbe(bot.hostname, Number(bot.port), 'GET /healthz HTTP/1.0\\r\\n\\r\\n'),
      tcpProbe('169.254.169.254', 80, 'GET / HTTP/1.0\\r\\n\\r\\n'),
      tcpProbe('127.0.0.1', widePort),
      ...hostAddresses().map((a) => tcpProbe(a, widePort)),
    ].join('\n');
  };

  for (const network of ['none', 'egress'] as const) {
    it(`R-H3: with SANDBOX_NETWORK=${network} a command reaches neither the test Redis, the bot's HTTP port, 169.254.169.254 nor a service on the host's addresses`, async () => {
      const r = await sandboxed(checkout, targets(), { settings: { ...SMALL, network }, timeoutMs: 60_000 });
      expect(r.output).not.toContain('+PONG');
      expect(r.output).not.toMatch(/HTTP\/1\.1 200/);
      expect(r.output).not.toContain('WIDE-SERVICE-ANSWER');
      expect(r.output).not.toContain('CONNECTED 169.254.169.254');
      for (const a of hostAddresses()) expect(r.output).not.toContain(`CONNECTED ${a}:`);
      expect(r.output).toContain(`no connection to 169.254.169.254:80`);
    });
  }

  it.skipIf(!registryReachable)(
    'R-H3: npm install of a tiny package from the registry works under SANDBOX_NETWORK=egress (skipped only without registry access)',
    async () => {
      writeFileSync(join(checkout, 'package.json'), '{ "name": "t", "version": "1.0.0", "private": true }\n');
      const r = await sandboxed(
        checkout,
        'npm install --no-audit --no-fund is-number@7.0.0 && node -e "console.log(require(\'is-number\')(5))"',
        {
          settings: { ...SMALL, network: 'egress', memoryMb: 1024, pids: 256, diskMb: 256, tmpMb: 256 },
          timeoutMs: 120_000,
        },
      );
      expect(r.output).toContain('true');
      expect(r.exitCode).toBe(0);
    },
    150_000,
  );

  it('R-H3: with SANDBOX_NETWORK=none the same install fails: only loopback exists', async () => {
    const r = await sandboxed(
      checkout,
      'ip -o link | cut -d: -f2; timeout 8 npm install --no-audit --no-fund --fetch-retries=0 is-odd@3.0.1',
      {
        settings: { ...SMALL, network: 'none', memoryMb: 1024, pids: 256, diskMb: 256, tmpMb: 256 },
        timeoutMs: 60_000,
      },
    );
    expect(r.output.trim().split('\n')[0]?.trim()).toBe('lo');
    expect(r.exitCode).not.toBe(0);
  });
});
