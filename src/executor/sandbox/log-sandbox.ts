import type { Logger } from '../../logger.ts';
import { probeSandbox } from './probe-sandbox.ts';
import type { SandboxConfig } from './sandbox-settings.ts';

/**
 * Start-up line about how repository code will run (R-H3): `SANDBOX=none` and a host where
 * bubblewrap cannot run are warnings an operator cannot miss; the probe is cached for the tools.
 * It is handed the logger and the sandbox's own settings, nothing else of the process.
 */
export async function logSandbox(log: Logger, config: SandboxConfig): Promise<void> {
  const p = await probeSandbox(config);
  const fields = { sandbox: p.mode, network: p.network, limits: p.limits };
  for (const w of p.warnings) log.warn(fields, `sandbox: ${w}`);
  if (!p.ok) log.warn(fields, `sandbox: unavailable, commands will be refused (${p.why}). Fix: ${p.fix}`);
  else if (p.mode !== 'none') {
    log.info(fields, `sandbox: bwrap, network ${p.network}, limits by ${p.limits}`);
    // Issue 45: said once. A root bot's commands on root's uid is worth a warning; a non-root bot's is as designed.
    if (p.user)
      log.info({ ...fields, uid: p.runsAs }, `sandbox: commands run as uid ${p.runsAs} on the host`);
    else
      (p.runsAs === 0 ? log.warn : log.info).call(
        log,
        { ...fields, uid: p.runsAs },
        `sandbox: commands run as the bot's own uid ${p.runsAs} on the host: ${p.runsAsWhy}`,
      );
  }
}
