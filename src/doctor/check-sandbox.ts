import type { Config } from '../config.ts';
import { probeSandbox } from '../executor/sandbox/probe-sandbox.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, ok, problem } from './finding.ts';

const CHECK = 'sandbox';

/**
 * R-H3: repository commands run only in the sandbox. The executor's own probe runs `true` in a
 * real sandbox with the configured network and limits; `SANDBOX=none` is reported as a problem,
 * since repository code then runs unconfined. The words are the doctor's own (issue 16): the
 * probe's reasons are quoted, its English fix and warnings are not.
 */
export async function checkSandbox(config: Config, say: Say): Promise<Finding[]> {
  const p = await probeSandbox(config);
  if (p.mode === 'none') return [problem(CHECK, say('sandbox.none'), say('sandbox.none.fix'))];
  if (!p.ok)
    return [
      problem(
        CHECK,
        say('sandbox.cannot-run', { why: p.why ?? say('sandbox.unknown') }),
        say('sandbox.cannot-run.fix'),
      ),
    ];
  // Issue 45: as which uid commands run on the host, and why not the sandbox's own where not.
  const runs = p.user
    ? say('sandbox.runs-as', { uid: String(p.runsAs) })
    : say('sandbox.runs-as-bot', { uid: String(p.runsAs), why: p.runsAsWhy ?? say('sandbox.unknown') });
  const vars = { network: p.network, limits: p.limits, runs };
  return [ok(CHECK, say(p.limits === 'rlimit' ? 'sandbox.ok-rlimit' : 'sandbox.ok', vars))];
}
