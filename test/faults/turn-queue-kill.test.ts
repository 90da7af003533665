import { spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleTurn } from '../../src/executor/schedule-turn.ts';
import { startTestApp, type TestApp } from '../kit/app.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { NODE_TS, nodeCacheEnv } from '../kit/source-node.ts';

const ownPrefix = ownedPrefixes();
const root = fileURLToPath(new URL('../../', import.meta.url));

/** One RESP command (an array of bulk strings) at the head of `buf`, or undefined while incomplete. */
function headCommand(buf: Buffer): { args: string[]; size: number } | undefined {
  let at = 0;
  const line = () => {
    const end = buf.indexOf('\r\n', at);
    if (end < 0) return undefined;
    const s = buf.toString('latin1', at, end);
    at = end + 2;
    return s;
  };
  const head = line();
  if (head === undefined) return undefined;
  const args: string[] = [];
  for (let i = 0; i < Number(head.slice(1)); i++) {
    const len = line();
    if (len === undefined || buf.length < at + Number(len.slice(1)) + 2) return undefined;
    args.push(buf.toString('utf8', at, at + Number(len.slice(1))));
    at += Number(len.slice(1)) + 2;
  }
  return { args, size: at };
}

/**
 * A proxy to Redis that forwards a process's commands one by one and, as its `n`th command after
 * `ECHO go` is about to go out, SIGKILLs the process instead: everything before it reached Redis,
 * nothing after.
 */
function killingProxy(target: URL) {
  let plan = { n: 0, kill: () => {} };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    upstream.pipe(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    let buf = Buffer.alloc(0);
    let counting = false;
    let seen = 0;
    client.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      for (let cmd = headCommand(buf); cmd; cmd = headCommand(buf)) {
        const [name, arg] = cmd.args;
        if (counting && ++seen === plan.n) {
          plan.kill();
          client.destroy();
          upstream.destroy();
          return;
        }
        if (name?.toUpperCase() === 'ECHO' && arg === 'go') counting = true;
        upstream.write(buf.subarray(0, cmd.size));
        buf = buf.subarray(cmd.size);
      }
    });
  });
  return {
    listen: () =>
      new Promise<number>((r) =>
        server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
      ),
    arm: (n: number, kill: () => void) => {
      plan = { n, kill };
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Runs the scheduling process once, killed before its `n`th command; true when it was killed. */
function scheduleKilledAt(
  proxy: ReturnType<typeof killingProxy>,
  port: number,
  prefix: string,
  ticket: string,
  n: number,
): Promise<boolean> {
  const child = spawn(process.execPath, [...NODE_TS, 'test/faults/schedule-turn-child.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...nodeCacheEnv(),
      REDIS_URL: `redis://127.0.0.1:${port}`,
      KEY_PREFIX: prefix,
      TICKET: ticket,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  proxy.arm(n, () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) =>
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(true);
      else if (code === 0 && out.includes('scheduled')) resolve(false);
      else reject(new Error(`the scheduling process failed (${code}): ${out}`));
    }),
  );
}

/**
 * Issue 46 item 2: queueing a turn can no longer leave a ticket unable to wake. A process that
 * queues a ticket's turn is SIGKILLed before each of its Redis commands in turn (the old flag was
 * one command and its job another); after each, the next card's scheduling still queues a turn.
 */
describe('a process killed while queueing a turn (issue 46 item 2)', () => {
  let app: TestApp;
  const proxy = killingProxy(new URL(redisUrl()));
  let port = 0;
  beforeAll(async () => {
    port = await proxy.listen();
    app = await startTestApp({ KEY_PREFIX: ownPrefix() }, { workers: false });
  });
  afterAll(async () => {
    await app?.close();
    await proxy.close();
  });

  it('killed before any of its steps, the ticket is woken by the next card all the same', async () => {
    const { ctx } = app;
    let kills = 0;
    for (let n = 1; ; n++) {
      const ticket = `T-kill-${n}`;
      if (!(await scheduleKilledAt(proxy, port, ctx.keys.prefix, ticket, n))) break;
      kills++;
      // The next card for the ticket schedules its turn as routing does: a turn is queued.
      await scheduleTurn(ctx, ticket);
      const queued = (await ctx.queues.executor.getJobs(['waiting', 'delayed', 'prioritized'])).filter(
        (j) => (j?.data as { ticketId?: string } | undefined)?.ticketId === ticket,
      );
      expect(queued, `killed before command ${n}`).toHaveLength(1);
    }
    // Queueing takes more than one command: every gap between them was tried.
    expect(kills).toBeGreaterThanOrEqual(2);
  }, 90_000);
});
