import type { Config } from '../config.ts';
import { TruncatedAnswerError } from '../session/errors/truncated-answer-error.ts';
import { describeModelError } from '../session/retry-policy.ts';

/** HTTP status of an SDK error (either SDK), if it has one. */
function statusOf(err: unknown): number | undefined {
  const s = (err as { status?: unknown }).status;
  return typeof s === 'number' ? s : undefined;
}

/**
 * What a failed model request says to fix. A retired or misspelt model answers 404 (Anthropic,
 * OpenAI) or 400 "Model Not Exist" (DeepSeek); a bad key 401/403; anything else names the
 * endpoint.
 */
export function modelFix(err: unknown, config: Config, model: string): { detail: string; fix: string } {
  const detail = describeModelError(err);
  const status = statusOf(err);
  const url = config.LLM_BASE_URL;
  if (err instanceof TruncatedAnswerError)
    return { detail, fix: `raise LLM_MAX_TOKENS (now ${config.LLM_MAX_TOKENS})` };
  if (status === 401 || status === 403) return { detail, fix: `set LLM_API_KEY to a valid key for ${url}` };
  if (status === 404 || /model.{0,20}(not exist|not found|does not exist)|model: /i.test(detail))
    return {
      detail,
      fix: `"${model}" is not served at ${url} (retired or misspelt): set LLM_MODEL (or MAIN_MODEL / EXECUTOR_MODEL) to a current model name`,
    };
  if (status === 400)
    return { detail, fix: `the endpoint refused the request: check that LLM_PROVIDER matches ${url}` };
  if (status === 429) return { detail, fix: 'the key is rate-limited or out of credit: check the account' };
  if (status !== undefined && status >= 500)
    return {
      detail,
      fix: `the endpoint at ${url} is failing; try again later or check the provider's status page`,
    };
  return { detail, fix: `check that LLM_BASE_URL (${url}) is right and reachable from here` };
}
