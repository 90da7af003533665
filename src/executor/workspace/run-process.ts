import { hostedSpawn } from '../spawn-host/hosted-spawn.ts';
import { CappedBuffer } from './capped-buffer.ts';

export interface ProcessResult {
  exitCode: number | null;
  /** Set when the process was killed at its time-out. */
  timedOut: boolean;
  /** stdout and stderr interleaved as they came, capped (head and tail kept). */
  output: string;
  /** stdout alone, capped the same way (for programs whose answer is parsed, like git). */
  stdout: string;
  /** Bytes dropped from the middle of the output by the cap. */
  dropped: number;
  /** Set when the process was killed because its `signal` was aborted (a pause, issue 28). */
  stopped?: true;
}

export interface RunProcessOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Bytes of output kept: half from the start, half from the end. */
  capBytes?: number;
  stdin?: string;
  /** Aborted: the whole process group is killed at once (`stopped` in the result). */
  signal?: AbortSignal;
}

const DEFAULT_CAP = 20_000;

/**
 * Runs a program with an argument vector (never a shell string built from model input), a
 * time-out that kills the whole process group, and an output cap that keeps the head and the
 * tail, where compilers and test runners put what matters.
 */
export function runProcess(file: string, args: string[], opts: RunProcessOptions): Promise<ProcessResult> {
  const cap = opts.capBytes ?? DEFAULT_CAP;
  const out = new CappedBuffer(cap);
  const stdout = new CappedBuffer(cap);
  return new Promise((resolve, reject) => {
    const child = hostedSpawn(file, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let stopped = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.killGroup();
    }, opts.timeoutMs);
    const unwatch = whenAborted(opts.signal, () => {
      stopped = true;
      child.killGroup();
    });
    child.stdout?.on('data', (b: Buffer) => {
      out.push(b);
      stdout.push(b);
    });
    child.stderr?.on('data', (b: Buffer) => out.push(b));
    if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
    child.on('error', (err) => {
      clearTimeout(timer);
      unwatch();
      reject(err);
    });
    child.on('close', (code: number | null) => {
      clearTimeout(timer);
      unwatch();
      // Children that outlived the shell (a backgrounded server) go with it.
      child.killGroup();
      resolve({
        exitCode: timedOut ? null : code,
        timedOut,
        output: out.text(),
        stdout: stdout.text(),
        dropped: out.dropped,
        ...(stopped ? { stopped: true as const } : {}),
      });
    });
  });
}

/** Calls `fn` once when `signal` aborts (at once if it has); returns what stops the listening. */
export function whenAborted(signal: AbortSignal | undefined, fn: () => void): () => void {
  if (!signal) return () => {};
  if (signal.aborted) {
    fn();
    return () => {};
  }
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}
