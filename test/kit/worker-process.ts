import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_RETRY_ENV } from './app.ts';
import { NODE_TS, nodeCacheEnv } from './source-node.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface BotProcess {
  child: ChildProcess;
  output: () => string;
  /** SIGKILL: the process gets no chance to clean up. */
  kill9(): void;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** The real product as its own process (`npm start` without npm), for crash and scale-out tests. */
export function startBotProcess(env: Record<string, string>): BotProcess {
  const child = spawn(process.execPath, [...NODE_TS, 'src/main.ts'], {
    cwd: root,
    // The start-up doctor would add model and GitHub calls the tests count; a test asks for it.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...nodeCacheEnv(),
      LOG_LEVEL: 'warn',
      STARTUP_DOCTOR: 'off',
      ...TEST_RETRY_ENV,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    kill9: () => child.kill('SIGKILL'),
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      return exited;
    },
  };
}
