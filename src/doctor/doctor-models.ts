import type { Config } from '../config.ts';
import { createModelClient, type ModelClient } from '../session/model-client.ts';

const DEFAULT_LLM = 'https://api.deepseek.com';

/** The model clients sessions would use, built the way `createRuntime` builds them. */
export function doctorModels(c: Config): { main?: ModelClient; executor?: ModelClient } {
  // A local OpenAI-compatible server may need no key; the default public endpoint does.
  const modelOn = Boolean(c.LLM_API_KEY) || c.LLM_BASE_URL.replace(/\/$/, '') !== DEFAULT_LLM;
  if (!modelOn) return {};
  const model = (name: string) =>
    createModelClient({ baseURL: c.LLM_BASE_URL, apiKey: c.LLM_API_KEY ?? 'none', model: name });
  return { main: model(c.mainModel), executor: model(c.executorModel) };
}
