import { loadConfig } from '../config.ts';
import { pricesFrom } from '../stats/cost.ts';
import type { Traffic } from './model-traffic.ts';
import { type ModelSettings, modelSettingsOf } from './run-identity.ts';
import { NULL_MODEL, ORACLE_MODEL, type WorldOptions } from './task-world.ts';
import { openRecording } from './traffic-setup.ts';

/**
 * Which model an eval run's products talk to (issue 29): the oracle (`--oracle`), the one
 * `EVAL_LLM_*` names, or, with `--replay DIR`, none — the recording answers as the provider and
 * model it recorded. Every task's product also gets `LLM_PRICES`, so the runner prices requests
 * with the panel's table. A bad `LLM_PRICES` or model setting is refused before any task runs.
 */

export interface ModelPlan {
  /** What each task world gets: the model's LLM_* settings (or the oracle), and a replay. */
  world: Pick<WorldOptions, 'model'> & { traffic?: Extract<Traffic, { mode: 'replay' }> };
  /** The model and provider the product resolves (the recording's, in a replay). */
  model: string;
  provider: string;
  /** The model's base URL as the product resolves it: the recorder's upstream. */
  baseUrl: string;
  oracle: boolean;
  /** `--baseline null`: the scripted agent that acknowledges and does nothing else. */
  baseline: 'null' | null;
  /** The model settings each task's product runs with (`meta.settings`). */
  settings: ModelSettings | null;
  env: Record<string, string>;
}

export interface PlanArgs {
  oracle: boolean;
  baseline?: string | undefined;
  record?: string | undefined;
  replay?: string | undefined;
}

/** The product's model settings from `EVAL_LLM_*`, or why they are missing. */
function evalModelEnv(env: NodeJS.ProcessEnv): Record<string, string> | string {
  const map = {
    EVAL_LLM_API_KEY: 'LLM_API_KEY',
    EVAL_LLM_BASE_URL: 'LLM_BASE_URL',
    EVAL_LLM_MODEL: 'LLM_MODEL',
    EVAL_LLM_PROVIDER: 'LLM_PROVIDER',
  } as const;
  if (!env.EVAL_LLM_API_KEY)
    return 'set EVAL_LLM_API_KEY (any text for a local server that needs none) and EVAL_LLM_PROVIDER, EVAL_LLM_MODEL, EVAL_LLM_BASE_URL as needed, or run with --oracle';
  return Object.fromEntries(
    Object.entries(map).flatMap(([from, to]) => (env[from] ? [[to, env[from] as string]] : [])),
  );
}

/** The settings a product loaded with `env` runs with; null when it would not load. */
function settingsFor(env: Record<string, string>): ModelSettings | null {
  try {
    return modelSettingsOf(loadConfig(env));
  } catch {
    return null;
  }
}

/** The run's model plan, or why it cannot run (exit status 2). */
export function planModel(a: PlanArgs, env: NodeJS.ProcessEnv = process.env): ModelPlan | string {
  if (a.replay && a.record) return '--record and --replay are two runs; pick one';
  if (a.replay && a.oracle)
    return '--replay answers from the recording (the oracle’s, if it recorded one); drop --oracle';
  if (a.baseline !== undefined && a.baseline !== 'null')
    return `--baseline knows one agent, null (acknowledges and does nothing else), not ${a.baseline}`;
  if (a.baseline && (a.oracle || a.replay))
    return '--baseline null is its own agent; drop --oracle and --replay';
  const prices = env.LLM_PRICES;
  try {
    pricesFrom(prices);
  } catch (err) {
    return `cannot run: ${err instanceof Error ? err.message : String(err)}`;
  }
  const pricing = prices ? { LLM_PRICES: prices } : {};
  if (a.replay) {
    const traffic = openRecording(a.replay);
    if (typeof traffic === 'string') return traffic;
    const m = traffic.manifest;
    const settings = settingsFor({ LLM_API_KEY: 'replay', LLM_PROVIDER: m.provider, LLM_MODEL: m.model });
    const common = {
      model: m.model,
      provider: m.provider,
      oracle: m.oracle,
      baseline: null,
      settings,
      env: pricing,
    };
    return { world: { model: {}, traffic }, baseUrl: `http://replay${m.basePath}`, ...common };
  }
  if (a.baseline === 'null') {
    const world = { model: 'null' as const };
    const named = {
      model: NULL_MODEL,
      provider: ORACLE_MODEL.provider,
      oracle: false,
      baseline: 'null' as const,
      settings: settingsFor({
        LLM_API_KEY: 'null',
        LLM_PROVIDER: ORACLE_MODEL.provider,
        LLM_MODEL: NULL_MODEL,
      }),
    };
    return { world, baseUrl: `http://oracle${ORACLE_MODEL.basePath}`, ...named, env: pricing };
  }
  const model = a.oracle ? ('oracle' as const) : evalModelEnv(env);
  if (typeof model === 'string' && model !== 'oracle') return model;
  try {
    const c = loadConfig(
      model === 'oracle'
        ? { LLM_API_KEY: 'oracle', LLM_PROVIDER: ORACLE_MODEL.provider, LLM_MODEL: ORACLE_MODEL.model }
        : model,
    );
    const resolved = {
      model: c.executorModel,
      provider: c.llmProvider,
      oracle: model === 'oracle',
      baseline: null,
      settings: modelSettingsOf(c),
      env: pricing,
    };
    if (model === 'oracle')
      return { world: { model }, baseUrl: `http://oracle${ORACLE_MODEL.basePath}`, ...resolved };
    // The provider is named, not left to be derived from a base URL the recorder will replace.
    const world = { model: { ...model, LLM_BASE_URL: c.LLM_BASE_URL, LLM_PROVIDER: c.llmProvider } };
    return { world, baseUrl: c.LLM_BASE_URL, ...resolved };
  } catch (err) {
    return `cannot run: ${err instanceof Error ? err.message : String(err)}`;
  }
}
