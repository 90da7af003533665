import type { Config } from '../config.ts';
import { TruncatedAnswerError } from '../session/errors/truncated-answer-error.ts';
import { describeModelError } from '../session/retry-policy.ts';
import type { DoctorTextKey, Say } from './doctor-text.ts';

/** HTTP status of an SDK error (either SDK), if it has one. */
function statusOf(err: unknown): number | undefined {
  const s = (err as { status?: unknown }).status;
  return typeof s === 'number' ? s : undefined;
}

/** Which fix a failed model request calls for. */
function fixKey(err: unknown, detail: string): DoctorTextKey {
  const status = statusOf(err);
  if (err instanceof TruncatedAnswerError) return 'model.truncated.fix';
  if (status === 401 || status === 403) return 'model.bad-key.fix';
  if (status === 404 || /model.{0,20}(not exist|not found|does not exist)|model: /i.test(detail))
    return 'model.unknown-model.fix';
  // OpenAI: "max_tokens is too large: 32768. This model supports at most 16384 completion tokens".
  if (status === 400 && /max_(completion_)?tokens/i.test(detail)) return 'model.max-tokens.fix';
  if (status === 400) return 'model.bad-request.fix';
  if (status === 429) return 'model.rate-limited.fix';
  if (status !== undefined && status >= 500) return 'model.server-error.fix';
  return 'model.unreachable.fix';
}

/**
 * What a failed model request says to fix. A retired or misspelt model answers 404 (Anthropic,
 * OpenAI) or 400 "Model Not Exist" (DeepSeek); a bad key 401/403; anything else names the
 * endpoint. `detail` is the error as the provider described it.
 */
export function modelFix(
  err: unknown,
  config: Config,
  model: string,
  say: Say,
): { detail: string; fix: string } {
  const detail = describeModelError(err);
  const fix = say(fixKey(err, detail), { url: config.LLM_BASE_URL, model, max: config.LLM_MAX_TOKENS });
  return { detail, fix };
}
