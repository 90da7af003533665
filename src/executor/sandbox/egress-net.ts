import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostedSpawn } from '../spawn-host/hosted-spawn.ts';

/**
 * The sandbox's side of its user-mode network: an address in the benchmarking range (RFC 2544),
 * which no host or LAN uses, so none of the ranges below is on-link inside the sandbox and the
 * blocking routes win. The gateway is also pasta's DNS forwarder.
 */
const ADDR = '198.18.0.2';
const GATEWAY = '198.18.0.1';

/**
 * Destinations a command may never reach even with egress (R-H3): the private ranges where Redis, the bot's web half and a cloud's
 * services live, carrier-grade NAT, link-local (169.254.169.254, the metadata service),
 * multicast and reserved space, and every address of the host itself (its listening ports).
 */
const BLOCKED = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '224.0.0.0/4',
  '240.0.0.0/4',
];

let runDir: string | undefined;
function dir(): string {
  if (!runDir) {
    const made = mkdtempSync(join(tmpdir(), 'switchyard-sandbox-'));
    // Issue 45: bwrap, run as the sandbox uid, walks here to bind resolv.conf (enter, not list).
    chmodSync(made, 0o711);
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    runDir = made;
  }
  return runDir;
}

/** The resolv.conf a sandbox with egress sees: pasta's DNS forwarder only. */
export function egressResolvConf(): string {
  const path = join(dir(), 'resolv.conf');
  writeFileSync(path, `nameserver ${GATEWAY}\noptions timeout:2 attempts:2\n`);
  return path;
}

/**
 * Every IPv4 address of this host, each blocked as a /32 (a service bound to 0.0.0.0 answers on
 * it). Loopback needs no route: inside the sandbox 127.0.0.0/8 is its own `lo`, which pasta never
 * forwards (`-T none`), and a route over it would break bwrap's own loopback set-up.
 */
function hostAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && i.family === 'IPv4' && !i.internal)
    .map((i) => `${i?.address}/32`);
}

function run(file: string, args: string[], input?: string): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = hostedSpawn(file, args, {
      stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
    });
    child.on('error', (e: Error) => resolve({ code: null, err: e.message }));
    child.on('close', (code: number | null) => resolve({ code, err: err.trim() }));
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * bwrap gives the sandbox's `lo` its address right after it reports its pid, while pasta also
 * configures `lo`: the two racing makes bwrap fail ("loopback: Failed RTM_NEWADDR"). pasta starts
 * once 127.0.0.1 is in the namespace's routing table.
 */
async function loopbackReady(pid: number): Promise<void> {
  const end = Date.now() + 5_000;
  while (Date.now() < end) {
    const trie = await readFile(`/proc/${pid}/net/fib_trie`, 'utf8').catch(() => '');
    if (trie.includes('127.0.0.1')) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new EgressError('the sandbox’s loopback did not come up');
}

export class EgressError extends Error {
  override name = 'EgressError' as const;
  readonly code = 'sandbox_egress_failed';
}

/**
 * Attaches pasta (user-mode networking, IPv4 only) to the network namespace of a sandbox that is
 * still blocked before its command, then adds blocking routes inside it. pasta forwards no port
 * either way (`-t/-u/-T/-U none`), and `--no-map-gw` keeps the gateway from meaning the host's
 * loopback. Returns a function that stops pasta (it does not leave by itself).
 */
export async function attachEgress(childPid: number, foreign = false): Promise<() => void> {
  await loopbackReady(childPid);
  const ns = foreign && process.getuid?.() === 0 ? await pinNetns(childPid) : undefined;
  try {
    return await attachPasta(childPid, ns);
  } finally {
    await ns?.release();
  }
}

/**
 * Issue 45: a sandbox started as the sandbox uid is that uid's process, and pasta, which drops
 * `CAP_SYS_PTRACE` before it opens `--netns`, may not open its `/proc/<pid>/ns/net`. Root binds
 * the namespace onto a file of its own (as `ip netns` does), which pasta opens instead; the bind
 * goes once pasta is in.
 */
async function pinNetns(pid: number): Promise<{ path: string; release: () => Promise<void> }> {
  const path = join(dir(), `netns-${pid}`);
  writeFileSync(path, '', { mode: 0o600 });
  const bound = await run('mount', ['--bind', `/proc/${pid}/ns/net`, path]);
  const release = async () => {
    // Lazily: pasta holds the namespace open through it.
    if (bound.code === 0) await run('umount', ['--lazy', path]);
    rmSync(path, { force: true });
  };
  if (bound.code !== 0) {
    await release();
    throw new EgressError(`the sandbox’s network namespace could not be bound (${bound.code}): ${bound.err}`);
  }
  return { path, release };
}

async function attachPasta(childPid: number, ns?: { path: string }): Promise<() => void> {
  const pidFile = join(dir(), `pasta-${childPid}.pid`);
  const asRoot = process.getuid?.() === 0;
  const args = ['--quiet', '--ipv4-only', '--config-net', '--no-map-gw'];
  args.push('-a', ADDR, '-n', '30', '-g', GATEWAY, '--dns-forward', GATEWAY);
  args.push('-t', 'none', '-u', 'none', '-T', 'none', '-U', 'none', '-P', pidFile);
  // pasta would switch to nobody, who may not enter the sandbox's namespaces; root joins the
  // network namespace alone (it holds every capability over it), so pasta's own isolation
  // is not made inside the sandbox's user namespace, where `--disable-userns` forbids it.
  const target = asRoot
    ? [
        '--runas',
        '0',
        '--netns',
        ns?.path ?? `/proc/${childPid}/ns/net`,
        '--netns-only',
        // A bound namespace's file goes right after pasta is in; pasta ends when it is killed.
        ...(ns ? ['--no-netns-quit'] : []),
      ]
    : [String(childPid)];
  const routes = [...new Set([...BLOCKED, ...hostAddresses()])]
    .map((r) => `route add prohibit ${r}`)
    .join('\n');
  const enter = asRoot ? ['-n'] : ['-U', '-n', '--preserve-credentials'];
  // The blocking routes need no interface: they go in while pasta sets the interface up.
  const [pasta, ip] = await Promise.all([
    run('pasta', [...args, ...target]),
    run('nsenter', ['-t', String(childPid), ...enter, 'ip', '-batch', '-'], `${routes}\n`),
  ]);
  const pastaPid = Number(readFileSync(pidFile, { encoding: 'utf8', flag: 'a+' }).trim());
  const stop = () => {
    if (!pastaPid) return;
    try {
      process.kill(pastaPid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  if (pasta.code !== 0 || ip.code !== 0) {
    stop();
    const why =
      pasta.code !== 0
        ? `pasta failed (${pasta.code}): ${pasta.err}`
        : `blocking routes failed (${ip.code}): ${ip.err}`;
    throw new EgressError(why);
  }
  rmSync(pidFile, { force: true });
  return stop;
}
