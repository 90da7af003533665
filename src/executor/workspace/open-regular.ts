import type { Stats } from 'node:fs';
import { constants, type FileHandle, lstat, open } from 'node:fs/promises';

/** Why a path was not read or written; `problemWords` says it. */
export type FileProblem =
  | { kind: 'missing' }
  | { kind: 'not_regular'; what: string }
  | { kind: 'too_large'; capBytes: number }
  | { kind: 'timed_out'; ms: number }
  | { kind: 'failed'; code: string };

export type RegularRead = { ok: true; data: Buffer } | { ok: false; problem: FileProblem };
export type RegularWrite = { ok: true } | { ok: false; problem: FileProblem };

export interface FileLimits {
  /** Reads refuse a file larger than this. */
  capBytes: number;
  /** The whole open, check and read (or write) gives up after this long. */
  timeoutMs: number;
}

// O_NONBLOCK: opening a FIFO for reading returns at once (for writing without a reader it fails
// with ENXIO) instead of holding a libuv threadpool thread until someone opens the other end —
// issue 31: one `mkfifo` froze a worker's file and DNS work. O_NOFOLLOW: a link swapped in for
// the last component is not followed.
const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK = 256 * 1024;

/** Errors that are the path's doing, said to the model; any other is the machine's and thrown. */
const PATH_ERRORS = new Set([
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'ENAMETOOLONG',
  'EROFS',
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
]);

/**
 * Reads `path` only if it is a regular file — never a FIFO, device, socket or directory, and never
 * through a link at its last component — and at most `capBytes` of it, within `timeoutMs`.
 */
export function readRegular(path: string, limits: FileLimits): Promise<RegularRead> {
  return withDeadline(limits.timeoutMs, async () => {
    const got = await openChecked(path, READ);
    if (!got.ok) return got;
    try {
      if (got.size > limits.capBytes) return tooLarge(limits.capBytes);
      const data = await readUpTo(got.fh, limits.capBytes);
      return data ? { ok: true, data } : tooLarge(limits.capBytes);
    } finally {
      await got.fh.close();
    }
  });
}

/** The outcome of `scanRegular`: the bytes it passed on and the file's size when opened, or why it could not. */
export type RegularScan = { ok: true; bytes: number; size: number } | { ok: false; problem: FileProblem };

/**
 * Passes a regular file's bytes to `visit` chunk by chunk, under the same rules as `readRegular`
 * but with no size cap (the deadline bounds it), until `visit` answers false: for reading a page
 * of a file too large to hold.
 */
export function scanRegular(
  path: string,
  timeoutMs: number,
  visit: (chunk: Buffer) => boolean,
): Promise<RegularScan> {
  return withDeadline(timeoutMs, async () => {
    const got = await openChecked(path, READ);
    if (!got.ok) return got;
    try {
      let bytes = 0;
      for (;;) {
        const chunk = Buffer.allocUnsafe(CHUNK);
        const { bytesRead } = await got.fh.read(chunk, 0, CHUNK, null);
        if (bytesRead === 0) return { ok: true as const, bytes, size: got.size };
        bytes += bytesRead;
        if (!visit(chunk.subarray(0, bytesRead))) return { ok: true as const, bytes, size: got.size };
      }
    } finally {
      await got.fh.close();
    }
  });
}

/**
 * Creates or replaces `path` with `data`, under the same rules as `readRegular`: a path that is
 * not a regular file is refused before anything is truncated. With `owner`, the file is given to
 * that uid through its descriptor.
 */
export function writeRegular(
  path: string,
  data: string,
  limits: FileLimits,
  owner?: { uid: number; gid: number },
): Promise<RegularWrite> {
  return withDeadline(limits.timeoutMs, async () => {
    const got = await openChecked(path, WRITE);
    if (!got.ok) return got;
    try {
      await got.fh.truncate(0);
      await got.fh.writeFile(data);
      // Issue 45: a file the host writes for commands run as a uid of their own is that uid's.
      if (owner && got.uid !== owner.uid) await got.fh.chown(owner.uid, owner.gid);
      return { ok: true };
    } catch (err) {
      return { ok: false, problem: pathProblemOrThrow(err) };
    } finally {
      await got.fh.close();
    }
  });
}

/** The problem in a few words, after the file's name: "is a directory, not a regular file". */
export function problemWords(p: FileProblem): string {
  if (p.kind === 'missing') return 'does not exist';
  if (p.kind === 'not_regular') return `is ${p.what}, not a regular file`;
  if (p.kind === 'too_large') return `is larger than ${p.capBytes} bytes`;
  if (p.kind === 'timed_out') return `did not answer within ${Math.round(p.ms / 1000)} s`;
  return `cannot be opened (${p.code})`;
}

type Checked = { ok: true; fh: FileHandle; size: number; uid: number } | { ok: false; problem: FileProblem };

/** Opens without blocking, then refuses anything `fstat` does not call a regular file. */
async function openChecked(path: string, flags: number): Promise<Checked> {
  let fh: FileHandle;
  try {
    fh = await open(path, flags, 0o666);
  } catch (err) {
    return { ok: false, problem: await openProblem(path, err) };
  }
  const st = await fh.stat().catch(async (err: unknown) => {
    await fh.close();
    throw err;
  });
  if (st.isFile()) return { ok: true, fh, size: st.size, uid: st.uid };
  await fh.close();
  return { ok: false, problem: { kind: 'not_regular', what: kindOf(st) } };
}

async function openProblem(path: string, err: unknown): Promise<FileProblem> {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (code === 'ENOENT') return { kind: 'missing' };
  if (code === 'EISDIR') return { kind: 'not_regular', what: 'a directory' };
  if (code === 'ELOOP') return { kind: 'not_regular', what: 'a symbolic link' };
  // A FIFO without a reader (or a socket) opened for writing.
  if (code === 'ENXIO') {
    const st = await lstat(path).catch(() => undefined);
    return { kind: 'not_regular', what: st ? kindOf(st) : 'a special file' };
  }
  return pathProblemOrThrow(err);
}

function pathProblemOrThrow(err: unknown): FileProblem {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (PATH_ERRORS.has(code)) return { kind: 'failed', code };
  throw err;
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'a special file';
}

const tooLarge = (capBytes: number) => ({
  ok: false as const,
  problem: { kind: 'too_large' as const, capBytes },
});

/** The file's bytes, or undefined past `cap` (a file may grow after `fstat`, or report size 0). */
async function readUpTo(fh: FileHandle, cap: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, cap + 1 - total));
    const { bytesRead } = await fh.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > cap) return undefined;
  }
}

/**
 * `work`, or a time-out after `ms`. A late `work` still finishes in the background and closes its
 * own handle; its answer is dropped.
 */
async function withDeadline<T>(
  ms: number,
  work: () => Promise<T>,
): Promise<T | { ok: false; problem: FileProblem }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ ok: false; problem: FileProblem }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, problem: { kind: 'timed_out', ms } }), ms);
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}
