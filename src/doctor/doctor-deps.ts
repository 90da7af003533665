import type { Config } from '../config.ts';
import type { Ctx } from '../context.ts';
import type { ModelClient } from '../session/model-client.ts';
import type { Say } from './doctor-text.ts';

/** What the checks use; the script and start-up build it from the configuration. */
export interface DoctorDeps {
  config: Config;
  /** The store's connection, whose server `check-redis.ts` inspects, and its keys (chat bindings). */
  store: Pick<Ctx, 'redis' | 'keys'>;
  /** The model clients sessions use (undefined: no model configured). */
  models: { main?: ModelClient; executor?: ModelClient };
  /** `false` at a quick start-up check: the model is not asked (no tokens spent). */
  modelRoundTrip: boolean;
  /** How long one outside call may take before it counts as a problem. */
  timeoutMs: number;
  /** The findings' words, in the language chosen for the report (`doctorLang`, issue 16). */
  say: Say;
}
