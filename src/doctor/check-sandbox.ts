import { execFile } from 'node:child_process';
import { type Finding, ok, problem } from './finding.ts';

/**
 * R-H3: repository commands run under bubblewrap. The probe runs the same kind of sandbox the
 * executor needs (every namespace unshared, the host read-only) around `true`.
 */
export const SANDBOX_PROBE = ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', 'true'];

export function checkSandbox(timeoutMs: number, bwrap = 'bwrap'): Promise<Finding[]> {
  return new Promise((resolve) => {
    execFile(bwrap, SANDBOX_PROBE, { timeout: timeoutMs }, (err, _out, stderr) => {
      if (!err) return resolve([ok('sandbox', 'bwrap runs')]);
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      resolve([
        problem(
          'sandbox',
          missing
            ? 'bwrap is not installed'
            : `bwrap cannot sandbox here: ${String(stderr).trim() || err.message}`,
          missing
            ? 'install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap)'
            : 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; in Docker run with --security-opt seccomp=unconfined --security-opt apparmor=unconfined)',
        ),
      ]);
    });
  });
}
