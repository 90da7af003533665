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
  else if (p.mode !== 'none') log.info(fields, `sandbox: bwrap, network ${p.network}, limits by ${p.limits}`);
}
