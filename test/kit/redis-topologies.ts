import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './local-net.ts';
import { type LocalRedis, startRedisServer } from './redis-server.ts';

const run = promisify(execFile);

export interface LocalCluster {
  /** `redis+cluster://127.0.0.1:A,127.0.0.1:B,127.0.0.1:C`: what `REDIS_URL` says for it. */
  url: string;
  ports: number[];
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster of `size` primaries (no replicas) on loopback, each a `redis-server` of the
 * test's own with its data and cluster bus on free ports, the slots spread by `redis-cli --cluster
 * create` (issue 19: the core flows run against it).
 */
export async function startRedisCluster(size = 3): Promise<LocalCluster> {
  const nodes: LocalRedis[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    for (let i = 0; i < size; i++) nodes.push(await startClusterNode());
    const addrs = nodes.map((n) => `127.0.0.1:${n.port}`);
    await run('redis-cli', ['--cluster', 'create', ...addrs, '--cluster-replicas', '0', '--cluster-yes']);
    await waitClusterOk(nodes.map((n) => n.port));
    return { url: `redis+cluster://${addrs.join(',')}`, ports: nodes.map((n) => n.port), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** One cluster node: `startRedisServer` with the cluster bus on a free port of its own. */
async function startClusterNode(): Promise<LocalRedis> {
  const bus = await freePort();
  return startRedisServer([
    '--cluster-enabled',
    'yes',
    '--cluster-port',
    String(bus),
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    '5000',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
}

/** Every node reports `cluster_state:ok` (all slots covered and agreed). */
async function waitClusterOk(ports: number[]): Promise<void> {
  const end = Date.now() + 20_000;
  for (;;) {
    const states = await Promise.all(
      ports.map(async (p) => (await run('redis-cli', ['-p', String(p), 'cluster', 'info'])).stdout),
    );
    if (states.every((s) => s.includes('cluster_state:ok'))) return;
    if (Date.now() > end) throw new Error(`the cluster never became ok:\n${states.join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export interface LocalSentinel {
  /** `redis+sentinel://127.0.0.1:S/primary`: what `REDIS_URL` says for it. */
  url: string;
  primaryPort: number;
  replicaPort: number;
  /** Kills the current primary (SIGKILL) and waits until Sentinel names the replica instead. */
  failOver(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A primary, its replica and one Sentinel watching them on loopback (quorum 1, a primary is down
 * after 1 s): for the flows over `redis+sentinel://` and a fail-over under them (issue 19).
 */
export async function startRedisSentinel(name = 'sy-primary'): Promise<LocalSentinel> {
  const dir = mkdtempSync(join(tmpdir(), 'sy-sentinel-'));
  const servers: LocalRedis[] = [];
  let sentinelProcess: ChildProcess | undefined;
  const stop = async () => {
    await Promise.all([...servers.map((r) => r.stop()), sentinelProcess && stopChild(sentinelProcess)]);
    rmSync(dir, { recursive: true, force: true });
  };
  const server = async (args: string[]) => {
    const r = await startRedisServer(['--save', '', ...args]);
    servers.push(r);
    return r;
  };
  try {
    // A replica syncs at once (the default waits 5 s for more replicas before a diskless sync).
    const primary = await server(['--repl-diskless-sync-delay', '0']);
    const replica = await server(['--replicaof', '127.0.0.1', String(primary.port)]);
    await waitUntil(
      async () =>
        (await run('redis-cli', ['-p', String(replica.port), 'info', 'replication'])).stdout.includes(
          'master_link_status:up',
        ),
      'the replica in sync',
    );
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `sentinel monitor ${name} 127.0.0.1 ${primary.port} 1`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        '',
      ].join('\n'),
    );
    const sentinelPort = await freePort();
    sentinelProcess = spawn(
      'redis-server',
      [conf, '--sentinel', '--port', String(sentinelPort), '--bind', '127.0.0.1'],
      { stdio: 'ignore' },
    );
    const primaryNamed = async () =>
      (
        await run('redis-cli', ['-p', String(sentinelPort), 'sentinel', 'get-master-addr-by-name', name])
      ).stdout
        .trim()
        .split('\n')[1];
    await waitUntil(
      async () => (await primaryNamed().catch(() => undefined)) === String(primary.port),
      'the sentinel',
    );
    return {
      url: `redis+sentinel://127.0.0.1:${sentinelPort}/${name}`,
      primaryPort: primary.port,
      replicaPort: replica.port,
      async failOver() {
        await replicaCaughtUp(primary.port);
        primary.kill();
        await waitUntil(async () => (await primaryNamed()) === String(replica.port), 'the fail-over', 30_000);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Replication is asynchronous: a primary killed a moment after a write may take that write with it
 * (a real fail-over can lose it too). A fail-over test that says "the replica had the data" first
 * writes a marker and waits (WAIT) until the replica acknowledged it — and so every earlier write,
 * since the replication stream is ordered.
 */
async function replicaCaughtUp(primaryPort: number): Promise<void> {
  const conn = new Redis({
    port: primaryPort,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  try {
    await conn.connect();
    await conn.set('sy-test:replication-marker', String(Date.now()));
    const acked = await conn.wait(1, 10_000);
    if (acked < 1) throw new Error("the replica did not acknowledge the primary's writes within 10 s");
  } finally {
    conn.disconnect();
  }
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
