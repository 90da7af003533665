import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, redisAnswersAt } from './local-net.ts';

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
  const dir = mkdtempSync(join(tmpdir(), 'sy-cluster-'));
  const nodes: { port: number; child: ChildProcess }[] = [];
  const stop = async () => {
    await Promise.all(nodes.map(({ child }) => stopChild(child)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < size; i++) nodes.push(await startNode(join(dir, `n${i}`)));
    const addrs = nodes.map((n) => `127.0.0.1:${n.port}`);
    await run('redis-cli', ['--cluster', 'create', ...addrs, '--cluster-replicas', '0', '--cluster-yes']);
    await waitClusterOk(nodes.map((n) => n.port));
    return { url: `redis+cluster://${addrs.join(',')}`, ports: nodes.map((n) => n.port), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function startNode(dir: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const bus = await freePort();
  mkdirSync(dir, { recursive: true });
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
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
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    if (await redisAnswersAt(`redis://127.0.0.1:${port}`)) return { port, child };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopChild(child);
  throw new Error(`cluster node on port ${port} never answered`);
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
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  };
  const server = async (sub: string, args: string[]) => {
    const port = await freePort();
    mkdirSync(join(dir, sub), { recursive: true });
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', join(dir, sub), '--save', '', ...args],
      { stdio: 'ignore' },
    );
    children.push(child);
    for (let i = 0; i < 100 && !(await redisAnswersAt(`redis://127.0.0.1:${port}`)); i++)
      await new Promise((r) => setTimeout(r, 50));
    return { port, child };
  };
  try {
    // A replica syncs at once (the default waits 5 s for more replicas before a diskless sync).
    const primary = await server('primary', ['--repl-diskless-sync-delay', '0']);
    const replica = await server('replica', ['--replicaof', '127.0.0.1', String(primary.port)]);
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
    children.push(
      spawn('redis-server', [conf, '--sentinel', '--port', String(sentinelPort), '--bind', '127.0.0.1'], {
        stdio: 'ignore',
      }),
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
        primary.child.kill('SIGKILL');
        await waitUntil(async () => (await primaryNamed()) === String(replica.port), 'the fail-over', 30_000);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
