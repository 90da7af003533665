import type { Ctx } from '../../context.ts';
import { probeSandbox } from './probe-sandbox.ts';

/**
 * Start-up line about how repository code will run (R-H3): `SANDBOX=none` and a host where
 * bubblewrap cannot run are warnings an operator cannot miss; the probe is cached for the tools.
 */
export async function logSandbox(ctx: Pick<Ctx, 'config' | 'log'>): Promise<void> {
  const p = await probeSandbox(ctx.config);
  const fields = { sandbox: p.mode, network: p.network, limits: p.limits };
  for (const w of p.warnings) ctx.log.warn(fields, `sandbox: ${w}`);
  if (!p.ok) ctx.log.warn(fields, `sandbox: unavailable, commands will be refused (${p.why}). Fix: ${p.fix}`);
  else if (p.mode !== 'none')
    ctx.log.info(fields, `sandbox: bwrap, network ${p.network}, limits by ${p.limits}`);
}
