import type { Ctx } from '../context.ts';
import type { Runtime } from '../runtime.ts';
import { sayIn } from './doctor-text.ts';
import { isProblem } from './finding.ts';
import { summaryLine } from './format-findings.ts';
import { runDoctor } from './run-doctor.ts';

/**
 * The doctor's one-line summary at start-up (issue 12), run in the background so start-up never
 * waits on an outside service: a warning naming each problem and its fix, or an info line.
 * `STARTUP_DOCTOR=quick` skips the model round trip (no tokens spent), `off` skips it all. It
 * speaks `DOCTOR_LANG`, else English.
 */
export function startupDoctor(ctx: Ctx, rt: Runtime): void {
  const mode = ctx.config.STARTUP_DOCTOR;
  if (mode === 'off') return;
  // Issue 16: a server's locale says little about who reads its logs, so only DOCTOR_LANG counts.
  const lang = ctx.config.DOCTOR_LANG ?? 'en';
  void runDoctor({
    config: ctx.config,
    store: ctx,
    models: rt.models,
    modelRoundTrip: mode === 'full',
    timeoutMs: 30_000,
    say: sayIn(lang),
  })
    .then((findings) => {
      const problems = findings.filter(isProblem).length;
      if (problems) ctx.log.warn({ doctor: findings, problems }, summaryLine(findings, lang));
      else ctx.log.info({ doctor: findings }, summaryLine(findings, lang));
    })
    .catch((err: unknown) => ctx.log.warn({ err }, 'doctor: the start-up check failed'));
}
