import type { Ctx } from '../context.ts';
import type { Lang } from '../i18n/lang.ts';
import type { Runtime } from '../runtime.ts';
import { sayIn } from './doctor-text.ts';
import type { Finding } from './finding.ts';
import { runDoctor } from './run-doctor.ts';

/** How long the panel reuses a run of the doctor: Home polls every few seconds, the checks are not free. */
export const DOCTOR_CACHE_MS = 60_000;
/** An outside service answers within this, or the panel's doctor reports it as unreachable. */
const TIMEOUT_MS = 5_000;

/** One run of the doctor for the panel: its findings and when it ran. */
export interface DoctorRun {
  at: number;
  findings: Finding[];
}

interface Cached {
  at: number;
  run: Promise<DoctorRun>;
}

const cache = new WeakMap<Ctx, Map<Lang, Cached>>();

/**
 * The doctor's checks for the panel's Home (issue 33 item 1), run at most once a minute per
 * process and language; polls in between share the run (one in flight at a time). The model is
 * not asked (no tokens spent on a poll): Home shows the last real request instead.
 */
export function panelDoctor(ctx: Ctx, rt: Pick<Runtime, 'models'>, lang: Lang): Promise<DoctorRun> {
  const mine = cache.get(ctx) ?? new Map<Lang, Cached>();
  cache.set(ctx, mine);
  const now = ctx.now();
  const hit = mine.get(lang);
  if (hit && now - hit.at < DOCTOR_CACHE_MS) return hit.run;
  const run = runDoctor({
    config: ctx.config,
    store: ctx,
    models: rt.models,
    modelRoundTrip: false,
    timeoutMs: TIMEOUT_MS,
    say: sayIn(lang),
  }).then((findings) => ({ at: now, findings }));
  // A run that failed is not kept: the next poll tries again.
  run.catch(() => mine.delete(lang));
  mine.set(lang, { at: now, run });
  return run;
}
