import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import type { SandboxResult } from '../sandbox/run-sandboxed.ts';
import { limitNotes, runOnCheckout } from '../sandbox/sandbox-command.ts';
import { SandboxError } from '../sandbox/sandbox-error.ts';
import { sandboxSettings } from '../sandbox/sandbox-settings.ts';
import type { TurnScope } from '../turn-scope.ts';
import { verificationProblem, verificationRefusal } from '../verification-command.ts';
import { addVerification } from '../workspace/delivery-records.ts';
import { inWorkspace } from '../workspace/work-gate.ts';
import { workTree } from '../workspace/work-tree.ts';
import type { Workspace } from '../workspace/workspace.ts';

/** What a command stopped by a pause answers (issue 28 "pause means now"), before its output. */
const PAUSED_TEXT = (
  await readFile(fileURLToPath(new URL('../../../prompts/loop/paused-command.md', import.meta.url)), 'utf8')
).trim();

const DEFAULT_TIMEOUT_S = 120;
const MAX_TIMEOUT_S = 600;

const timeout = z.number().int().min(1).max(MAX_TIMEOUT_S).optional();

/** Read-only profiles (reviewer, explorer: R-G4) see the checkout read-only, in code. */
export const mayWriteCheckout = (scope: TurnScope) =>
  (scope.artifacts?.role.profile ?? 'worker') === 'worker';

/**
 * Runs a shell command on the checkout (R-H3): one argument to `bash -c`, in the sandbox (its own
 * namespaces, only this checkout visible at `/workspace`, a clean environment, caps on time,
 * memory, processes, output and disk), and the caps it ran into said in words.
 */
export async function runInCheckout(
  scope: TurnScope,
  ws: Workspace,
  command: string,
  seconds = DEFAULT_TIMEOUT_S,
  tool = 'run_command',
): Promise<{ ok: true; result: SandboxResult; text: string } | { ok: false; refusal: string }> {
  const { config, metrics } = scope.rt.ctx;
  const secs = Math.min(seconds, MAX_TIMEOUT_S);
  const started = performance.now();
  // Issue 17: every sandboxed command's duration, by how it ended.
  const observe = (outcome: string) =>
    metrics.sandboxCommandSeconds.observe({ tool, outcome }, (performance.now() - started) / 1000);
  try {
    const got = await runOnCheckout(config, ws, ['bash', '-c', command], {
      writable: mayWriteCheckout(scope),
      timeoutMs: secs * 1000,
      // Issue 28: a pause kills the command at once.
      ...(scope.paused ? { signal: scope.paused } : {}),
      // Issue 13: code from a fork's PR runs with no network at all.
      ...(scope.forkCode ? { network: 'none' as const } : {}),
    });
    if (!got.ok) {
      observe('refused');
      return got;
    }
    const r = got.result;
    if (r.stopped) {
      observe('paused');
      const ran = Math.round((performance.now() - started) / 1000);
      return {
        ok: true,
        result: r,
        text: [PAUSED_TEXT.replace('{seconds}', String(ran)), r.output].join('\n'),
      };
    }
    observe(r.timedOut ? 'timeout' : r.exitCode === 0 ? 'exit_zero' : 'exit_nonzero');
    const head = r.timedOut ? `timed out after ${secs} s (killed)` : `exit ${r.exitCode}`;
    const notes = limitNotes(r, sandboxSettings(config), secs);
    return { ok: true, result: r, text: [head, ...notes, r.output].join('\n') };
  } catch (err) {
    if (err instanceof SandboxError) {
      observe('refused');
      return { ok: false, refusal: err.message };
    }
    throw err;
  }
}

/** `run_command({ command, timeout_seconds? })`. */
export function runCommandTool(scope: TurnScope) {
  return defineTool({
    name: 'run_command',
    description: `Run a shell command in the checkout (bash -c), inside a sandbox where the checkout is /workspace. Time-out ${DEFAULT_TIMEOUT_S} s by default, at most ${MAX_TIMEOUT_S}; output is cut to its first and last 10 kB; memory, processes and disk are capped. No secrets of the bot are in its environment. Nothing persists between calls but the checkout (cwd, variables, HOME, /tmp, background processes): start a service and its client in one command.`,
    parameters: z.object({ command: z.string().min(1), timeout_seconds: timeout }),
    run: ({ command, timeout_seconds = DEFAULT_TIMEOUT_S }) =>
      inWorkspace(scope, async (ws) => {
        const r = await runInCheckout(scope, ws, command, timeout_seconds);
        return r.ok ? toolOk(r.text) : toolError(r.refusal);
      }),
  });
}

/**
 * `record_verification({ command })` (R-C6): runs the command and records it with its exit code,
 * the HEAD it ran at and the work tree it ran on (issue 28: it counts for any commit of exactly
 * those files, before or after committing them). A command whose exit code checks nothing
 * (`true`, `echo ok`, `npm test || true`: `verificationProblem`) is refused and not run.
 */
export function recordVerificationTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'record_verification',
    description:
      'Run the command that verifies the change (tests, build, lint) and record its exit code for the files it ran on. A PR is marked ready only with a passing verification on the files of the pushed HEAD: run it after your last change, before or after committing. No-ops (true, echo, exit 0) and masked exit codes (|| true) are refused.',
    parameters: z.object({ command: z.string().min(1), timeout_seconds: timeout }),
    run: ({ command, timeout_seconds = DEFAULT_TIMEOUT_S }) => {
      const why = verificationProblem(command);
      if (why) return Promise.resolve(toolError(verificationRefusal(command, why)));
      return inWorkspace(scope, async (ws, login) => {
        const at = await workTree(ctx.config, ws, login, { proof: true });
        const dirty = at.tree !== at.headTree;
        const r = await runInCheckout(scope, ws, command, timeout_seconds, 'record_verification');
        if (!r.ok) return toolError(r.refusal);
        // A run the pause cut short verified nothing.
        if (r.result.stopped) return toolError(`not recorded: ${r.text}`);
        await addVerification(ctx, scope.ticket.id, {
          command,
          exitCode: r.result.exitCode,
          sha: at.head,
          dirty,
          tree: at.tree,
          at: ctx.now(),
        });
        const note = dirty
          ? ' (uncommitted changes present: this counts for a commit of exactly these files; commit them as they are)'
          : '';
        return toolOk(`recorded at ${at.head.slice(0, 12)}${note}: ${r.text}`);
      });
    },
  });
}
