/**
 * The provider stopped the answer for want of capacity (DeepSeek's `finish_reason:
 * "insufficient_system_resource"`, issue 28): not the model's doing, so nothing of it is kept and
 * the request is retried like a 503.
 */
export class ProviderCutError extends Error {
  override name = 'ProviderCutError' as const;
  readonly code = 'answer_cut_by_provider' as const;

  readonly finishReason: string;

  constructor(finishReason: string) {
    super(`the provider stopped the answer (${finishReason})`);
    this.finishReason = finishReason;
  }
}
