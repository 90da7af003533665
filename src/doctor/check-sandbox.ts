import type { Config } from '../config.ts';
import { probeSandbox } from '../executor/sandbox/probe-sandbox.ts';
import { type Finding, ok, problem } from './finding.ts';

const CHECK = 'sandbox';

/**
 * R-H3: repository commands run only in the sandbox. The executor's own probe runs `true` in a
 * real sandbox with the configured network and limits; `SANDBOX=none` is reported as a problem,
 * since repository code then runs unconfined.
 */
export async function checkSandbox(config: Config): Promise<Finding[]> {
  const p = await probeSandbox(config);
  if (p.mode === 'none')
    return [
      problem(
        CHECK,
        'SANDBOX=none: repository code runs unconfined',
        'install bubblewrap and set SANDBOX=bwrap (the default), unless every repository and person is trusted',
      ),
    ];
  if (!p.ok)
    return [
      problem(CHECK, `bwrap cannot run commands: ${p.why ?? 'unknown'}`, p.fix ?? 'install bubblewrap'),
    ];
  const notes = p.warnings.length ? `; ${p.warnings.join('; ')}` : '';
  return [ok(CHECK, `bwrap, network ${p.network}, limits by ${p.limits}${notes}`)];
}
