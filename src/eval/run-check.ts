import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { SANDBOX_HOME, type SandboxBind } from '../executor/sandbox/bwrap-args.ts';
import { probeSandbox } from '../executor/sandbox/probe-sandbox.ts';
import { runSandboxed } from '../executor/sandbox/run-sandboxed.ts';
import type { SandboxConfig } from '../executor/sandbox/sandbox-settings.ts';
import { sandboxSettings } from '../executor/sandbox/sandbox-settings.ts';
import { chromiumPath } from '../executor/screenshot/screenshot-run.ts';
import { commandEnv } from '../executor/workspace/command-env.ts';
import { runProcess } from '../executor/workspace/run-process.ts';

export interface CheckOutcome {
  exitCode: number | null;
  timedOut: boolean;
  output: string;
}

/**
 * The sandbox a task's `check` runs in: the product's own (bubblewrap, the default caps, no
 * network — a check needs none), or unconfined where `SANDBOX=none`, as for the bot itself.
 */
export function evalSandboxConfig(env: NodeJS.ProcessEnv = process.env): SandboxConfig {
  return {
    SANDBOX: env.SANDBOX === 'none' ? 'none' : 'bwrap',
    SANDBOX_NETWORK: 'none',
    SANDBOX_MEMORY_MB: 2048,
    SANDBOX_PIDS: 512,
    SANDBOX_DISK_MB: 5120,
    SANDBOX_TMP_MB: 1024,
  };
}

/** Thrown when the sandbox cannot run at all: validation stops instead of judging every task. */
export class CheckSandboxError extends Error {
  override name = 'CheckSandboxError' as const;
}

const PLAYWRIGHT = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
const INSIDE_PLAYWRIGHT = '/opt/switchyard-eval/playwright-core';

/**
 * What a check may render pages with (issue 47 item 6: UI tasks graded by rendering): the
 * product's playwright-core, read-only, and the Chromium the screenshot tool uses, named by
 * `EVAL_PLAYWRIGHT_CORE` and `EVAL_CHROMIUM` (absent where the machine has no Chromium). The
 * browser runs inside the check's sandbox, on the tree's own files: nothing else is reachable.
 */
export function renderKit(confined: boolean): { env: Record<string, string>; binds: SandboxBind[] } {
  const browser = chromiumPath(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {});
  if (!browser) return { env: {}, binds: [] };
  const playwright = confined ? INSIDE_PLAYWRIGHT : PLAYWRIGHT;
  const binds: SandboxBind[] = confined ? [{ host: PLAYWRIGHT, inside: playwright, writable: false }] : [];
  // A browser outside /usr (which the sandbox shows anyway) is shown read-only where it lives.
  const real = realpathSync(browser);
  if (confined && !(real.startsWith('/usr/') && browser.startsWith('/usr/')))
    binds.push({ host: dirname(real), inside: dirname(real), writable: false });
  return { env: { EVAL_PLAYWRIGHT_CORE: playwright, EVAL_CHROMIUM: browser }, binds };
}

/** Runs `check` with `bash -c` in the checkout at `dir`, as an executor command runs (R-H3). */
export async function runCheck(
  config: SandboxConfig,
  dir: string,
  /** HOME for an unconfined run (the sandbox brings its own). */
  home: string,
  check: string,
  timeoutMs: number,
): Promise<CheckOutcome> {
  const argv = ['bash', '-c', check];
  if (config.SANDBOX === 'none') {
    const r = await runProcess(argv[0] as string, argv.slice(1), {
      cwd: dir,
      env: { ...commandEnv(home, process.env), ...renderKit(false).env },
      timeoutMs,
    });
    return { exitCode: r.exitCode, timedOut: r.timedOut, output: r.output };
  }
  const probe = await probeSandbox(config);
  if (!probe.ok) throw new CheckSandboxError(`the sandbox cannot run here (${probe.why}). Fix: ${probe.fix}`);
  const kit = renderKit(true);
  const r = await runSandboxed(sandboxSettings(config), {
    checkout: dir,
    writable: true,
    argv,
    binds: kit.binds,
    env: { ...commandEnv(SANDBOX_HOME, process.env, { TMPDIR: '/tmp' }), ...kit.env },
    timeoutMs,
    network: 'none',
  });
  return { exitCode: r.exitCode, timedOut: r.timedOut, output: r.output };
}
