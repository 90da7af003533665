import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { Duplex } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

/** Each of the child's descriptors from 0 up: a pipe to this process, or nothing. */
export type HostedStdio = ('ignore' | 'pipe')[];

export interface HostedSpawnOptions {
  cwd?: string;
  /** The child's whole environment (this process's when left out). */
  env?: NodeJS.ProcessEnv;
  /** In a process group of its own, so `killGroup` reaches what it starts. */
  detached?: boolean;
  stdio?: HostedStdio;
}

/** What the host says about one child (see spawn-host.mjs). */
type HostMessage =
  | { t: 'spawned'; id: number; pid: number }
  | { t: 'data'; id: number; fd: number; data: Uint8Array }
  | { t: 'error'; id: number; message: string; code?: string }
  | { t: 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

const HOST_SCRIPT = fileURLToPath(new URL('./spawn-host.mjs', import.meta.url));

/**
 * A program started by the spawn host, seen as much like a `ChildProcess` as its callers use:
 * `pid` once started, a stream per piped descriptor (read what the child writes, write what it
 * reads), `'error'` when it could not start or the host was lost, and `'close'` with its exit
 * status after its output was delivered.
 */
export class HostedChild extends EventEmitter {
  pid: number | undefined;
  readonly stdio: (Duplex | null)[];
  private pendingKill: NodeJS.Signals | undefined;
  private closed = false;

  constructor(stdio: HostedStdio, write: (fd: number, data: Uint8Array | null) => void) {
    super();
    this.stdio = stdio.map((kind, fd) =>
      kind === 'pipe'
        ? new Duplex({
            read() {},
            write(chunk: Buffer, _enc, done) {
              write(fd, chunk);
              done();
            },
            final(done) {
              write(fd, null);
              done();
            },
          })
        : null,
    );
  }

  get stdin() {
    return this.stdio[0] ?? null;
  }
  get stdout() {
    return this.stdio[1] ?? null;
  }
  get stderr() {
    return this.stdio[2] ?? null;
  }

  /** Kills the child's process group (it was started `detached`), now or as soon as it has a pid. */
  killGroup(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.pid === undefined) {
      if (!this.closed) this.pendingKill = signal;
      return;
    }
    try {
      process.kill(-this.pid, signal);
    } catch {
      // already gone
    }
  }

  /** @internal One message from the host about this child. */
  receive(m: HostMessage): void {
    if (m.t === 'spawned') {
      this.pid = m.pid;
      if (this.pendingKill) this.killGroup(this.pendingKill);
    } else if (m.t === 'data') this.stdio[m.fd]?.push(Buffer.from(m.data));
    else if (m.t === 'error') this.emit('error', Object.assign(new Error(m.message), { code: m.code }));
    else void this.close(m.code, m.signal);
  }

  /** @internal The output read to its end first, as a `ChildProcess` closes after its streams. */
  async close(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const readable = this.stdio.filter((s): s is Duplex => s !== null);
    for (const s of readable) {
      s.push(null);
      // A pipe nobody reads is drained, so its end comes.
      if (s.listenerCount('data') === 0 && s.listenerCount('readable') === 0) s.resume();
    }
    await Promise.all(readable.map((s) => finished(s, { writable: false }).catch(() => {})));
    this.emit('close', code, signal);
  }
}

interface Host {
  proc: ChildProcess;
  children: Map<number, HostedChild>;
}

let host: Host | undefined;
let lastId = 0;

/** The host, started on first use and again after it was lost. */
function theHost(): Host {
  if (host?.proc.connected) return host;
  const proc = fork(HOST_SCRIPT, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: [],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  const started: Host = { proc, children: new Map() };
  proc.on('message', (m: HostMessage) => {
    started.children.get(m.id)?.receive(m);
    if (m.t === 'close') {
      started.children.delete(m.id);
      holdOpen(started);
    }
  });
  const lost = () => {
    if (host === started) host = undefined;
    for (const child of started.children.values()) {
      child.emit('error', Object.assign(new Error('the spawn host exited'), { code: 'ESPAWNHOST' }));
      void child.close(null, null);
    }
    started.children.clear();
  };
  proc.on('exit', lost);
  proc.on('error', lost);
  proc.unref();
  host = started;
  holdOpen(started);
  return started;
}

/** This process stays up while a child it asked for runs, as it would for its own child. */
function holdOpen(h: Host): void {
  const channel = h.proc.channel as { ref(): void; unref(): void } | undefined;
  if (h.children.size > 0) channel?.ref();
  else channel?.unref();
}

/**
 * Starts `file` with `args` through the spawn host: the same program, arguments, directory,
 * environment and pipes as `spawn` would give it, without forking this (large) process.
 */
export function hostedSpawn(file: string, args: string[], opts: HostedSpawnOptions = {}): HostedChild {
  const h = theHost();
  const id = ++lastId;
  const stdio = opts.stdio ?? ['pipe', 'pipe', 'pipe'];
  const send = (msg: object) => {
    if (h.proc.connected) h.proc.send(msg);
  };
  const child = new HostedChild(stdio, (fd, data) =>
    send(data === null ? { t: 'end', id, fd } : { t: 'write', id, fd, data }),
  );
  h.children.set(id, child);
  holdOpen(h);
  send({
    t: 'spawn',
    id,
    file,
    args,
    cwd: opts.cwd ?? process.cwd(),
    env: opts.env ?? process.env,
    detached: opts.detached ?? false,
    stdio,
  });
  return child;
}
