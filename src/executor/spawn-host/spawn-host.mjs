// The spawn host: a small Node process that starts the programs a large one asks for
// (src/executor/spawn-host/hosted-spawn.ts). Forking a process copies its page tables, and the
// parent then faults on every page it writes again; a worker of several hundred megabytes pays
// that for each host git, bwrap and du, this process a fraction of it. Plain JavaScript: it runs
// as is from the sources and from the build.
//
// Messages from the parent (over the IPC channel, advanced serialization):
//   { t: 'spawn', id, file, args, cwd, env, detached, stdio: ['ignore' | 'pipe', ...] }
//   { t: 'write', id, fd, data }   { t: 'end', id, fd }
// and to it: { t: 'spawned', id, pid }, { t: 'data', id, fd, data }, { t: 'error', id, message, code },
// { t: 'close', id, code, signal }.
import { spawn } from 'node:child_process';
import { closeSync, readdirSync, readFileSync } from 'node:fs';

// Descriptors this process inherited open across exec (a supervisor's pipe, a directory a
// launcher left open) would pass on to every program it starts, and through /proc/self/fd/N a
// sandboxed command could reach that directory outside its mount namespace (R-H3). Node opens its
// own close-on-exec; any other above 2 is closed here, before anything is started.
const O_CLOEXEC = 0o2000000;
function closeInherited() {
  let fds;
  try {
    fds = readdirSync('/proc/self/fd').map(Number);
  } catch {
    return; // no /proc: nothing to read them from
  }
  for (const fd of fds) {
    if (fd <= 2) continue;
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      if (flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) === 0) closeSync(fd);
    } catch {
      // gone meanwhile (the listing's own descriptor)
    }
  }
}
closeInherited();

/** Children still running, by the parent's id: `{ child, detached }`. */
const children = new Map();

/**
 * Messages written to the channel but not yet taken by the parent. A child writing faster than
 * the parent reads (`yes` for two minutes) has its pipes paused past HIGH and resumed below LOW,
 * so its output waits in the kernel's pipe, not in this process's memory.
 */
let inFlight = 0;
const HIGH = 32;
const LOW = 8;
const paused = new Set();

const send = (msg) => {
  if (!process.connected) return;
  inFlight++;
  process.send(msg, () => {
    inFlight--;
    if (inFlight > LOW) return;
    for (const stream of paused) stream.resume();
    paused.clear();
  });
};

function start(m) {
  let child;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: m.detached, stdio: m.stdio });
  } catch (err) {
    send({ t: 'error', id: m.id, message: err.message, code: err.code });
    send({ t: 'close', id: m.id, code: null, signal: null });
    return;
  }
  children.set(m.id, { child, detached: m.detached });
  if (child.pid !== undefined) send({ t: 'spawned', id: m.id, pid: child.pid });
  child.stdio.forEach((stream, fd) => {
    stream?.on('data', (data) => {
      send({ t: 'data', id: m.id, fd, data });
      if (inFlight < HIGH) return;
      stream.pause();
      paused.add(stream);
    });
    // A child that closes its end early (EPIPE) is the child's business, as with a direct spawn.
    stream?.on('error', () => {});
  });
  child.on('error', (err) => send({ t: 'error', id: m.id, message: err.message, code: err.code }));
  child.on('close', (code, signal) => {
    children.delete(m.id);
    send({ t: 'close', id: m.id, code, signal });
  });
}

process.on('message', (m) => {
  if (m.t === 'spawn') return start(m);
  const stream = children.get(m.id)?.child.stdio[m.fd];
  if (m.t === 'write') stream?.write(m.data);
  else if (m.t === 'end') stream?.end();
});

// The parent is gone (exited or killed): what it started goes with it, as `--die-with-parent`
// and the parent's own group kills would have seen to.
process.on('disconnect', () => {
  for (const { child, detached } of children.values()) {
    if (child.pid === undefined) continue;
    try {
      process.kill(detached ? -child.pid : child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  process.exit(0);
});

// A terminal's Ctrl-C reaches the whole foreground group: the parent decides when work stops.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => {});
