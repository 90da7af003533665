import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executorFlow, SECRETS, startWorld, type World } from '../integration/executor/harness.ts';
import { localMessage, openTicketIn, send } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../kit/fake-llm.ts';
import { redisUrl } from '../kit/redis.ts';
import { cardsIn, lastToolResults, roleOf } from '../kit/scripted-model.ts';
import { hostProcessesWith, tcpProbe } from './sandbox-kit.ts';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);
const run = (command: string, timeout_seconds?: number) =>
  toolCalls(['run_command', { command, ...(timeout_seconds ? { timeout_seconds } : {}) }]);

/** Every README.md under the world's workspaces (the checkouts), with its content. */
function readmes(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 3) return;
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (name === 'README.md') out.push(readFileSync(p, 'utf8'));
      else if (name !== '.git' && statSync(p).isDirectory()) walk(p, depth + 1);
    }
  };
  walk(join(root, 'workspaces'), 0);
  return out;
}

describe('R-H3: run_command through an executor turn runs in the sandbox (real bubblewrap, Redis and HTTP server)', () => {
  let w: World;
  const saved = { ...process.env };
  // Each test its own product, workspaces and key prefix (issue 20): the reviewer test reads every
  // checkout of its world, and counts its executor's turns from the first.
  beforeEach(async () => {
    // The bot's own process holds its secrets, as in production.
    Object.assign(process.env, SECRETS);
    w = await startWorld({ SANDBOX_MEMORY_MB: '128', SANDBOX_DISK_MB: '32', SANDBOX_NETWORK: 'egress' });
  });
  afterEach(async () => {
    await w?.close();
    process.env = { ...saved };
  });

  it('R-H3: a command reads no other process’s environment and reaches neither Redis, the bot’s port nor 169.254.169.254', async () => {
    const redis = new URL(redisUrl());
    const bot = new URL(w.app.url);
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        run(
          'cat /proc/1/environ; tr "\\0" "\\n" < /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < $f; done; env',
        ),
      () =>
        run(
          [
            tcpProbe(redis.hostname, Number(redis.port || 6379)),
            tcpProbe(bot.hostname, Number(bot.port), 'GET /healthz HTTP/1.0\\r\\n\\r\\n'),
            tcpProbe('169.254.169.254', 80, 'GET / HTTP/1.0\\r\\n\\r\\n'),
          ].join('\n'),
        ),
    ]);
    await send(w.app.ctx, localMessage('Please check the build of the web app'));
    await flow.done();
    const environ = flow.results[1]?.join('\n') ?? '';
    expect(environ).toContain('exit 0');
    expect(environ).toContain('HOME=/home/sandbox');
    for (const value of Object.values(SECRETS)) expect(environ).not.toContain(value);
    expect(environ).not.toContain('REDIS_URL');
    const net = flow.results[2]?.join('\n') ?? '';
    expect(net).not.toContain('+PONG');
    expect(net).not.toMatch(/HTTP\/1\.1 200/);
    expect(net).not.toContain('CONNECTED 169.254.169.254');
    expect(net).toContain(`no connection to ${redis.hostname}:`);
  });

  it('R-H3: at its time-out nothing of the command survives (setsid, nohup, double fork), and the model is told which limit', async () => {
    const m = `${process.pid}${Date.now() % 1000}`;
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        run(
          `setsid sleep 911.${m} & nohup sleep 912.${m} >/dev/null 2>&1 & (sleep 913.${m} &); bash -c "(setsid sleep 914.${m} &) &"; sleep 100`,
          1,
        ),
      () => run('tail /dev/zero'),
      () => run('head -c 40M /dev/zero > big.bin; ls -la big.bin'),
    ]);
    await send(w.app.ctx, localMessage('Please time the build of the web app'));
    await flow.done();
    expect(flow.results[1]?.join()).toContain('limit reached: time');
    expect(hostProcessesWith(`.${m}`)).toEqual([]);
    expect(flow.results[2]?.join()).toMatch(/limit reached: memory — .*128 MB \(SANDBOX_MEMORY_MB\)/);
    expect(flow.results[3]?.join()).toMatch(/limit reached: disk — .*32 MB \(SANDBOX_DISK_MB\)/);
  });

  it('R-G4: a reviewer’s command cannot modify the checkout', async () => {
    let turn = 0;
    const results: string[][] = [];
    w.llm.respond((req: RecordedRequest) => {
      if (roleOf(req) === 'main') {
        if (req.messages.at(-1)?.role === 'tool') return text('Routed.');
        const decisions = cardsIn(req).map((card) => ({ card, action: 'open', crew: 'review' }));
        return toolCalls(['orchestrator_route', { decisions }]);
      }
      turn++;
      if (turn === 1) return ack(cardsIn(req)[0] ?? '');
      results.push(lastToolResults(req));
      if (turn === 2)
        return run('echo pwned >> README.md; touch new.txt; git commit -qam x --allow-empty; echo end');
      return text('Reviewed.');
    });
    // A ticket already open in the chat, so the request goes to the main session (which opens it
    // with the review crew) instead of being opened by code with the default crew (issue 18).
    await openTicketIn(w.app.ctx, 'room');
    await send(w.app.ctx, localMessage('Please review the web app'));
    await waitFor(() => results.length >= 2, 'the reviewer’s command', 30_000);
    const out = results[1]?.join('\n') ?? '';
    expect(out).toMatch(/Read-only file system/);
    expect(readmes(w.root).every((t) => !t.includes('pwned'))).toBe(true);
    expect(readmes(w.root).length).toBeGreaterThan(0);
  });
});
