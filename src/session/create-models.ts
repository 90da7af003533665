import type { Config } from '../config.ts';
import { createModelForConfig } from './create-model-for-config.ts';
import type { ModelClient } from './model-client.ts';

const DEFAULT_LLM = 'https://api.deepseek.com';

/**
 * The model clients of both session kinds, or none when no model is configured (sessions then
 * wait, and start-up said so). Shared by the runtime and `npm run doctor`, so the doctor asks the
 * very clients sessions use.
 */
export function createModels(c: Config): { main?: ModelClient; executor?: ModelClient } {
  // A local OpenAI-compatible server may need no key; the default public endpoint does.
  const modelOn = Boolean(c.LLM_API_KEY) || c.LLM_BASE_URL.replace(/\/$/, '') !== DEFAULT_LLM;
  return modelOn
    ? { main: createModelForConfig(c, 'main'), executor: createModelForConfig(c, 'executor') }
    : {};
}
