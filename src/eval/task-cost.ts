import type { Config } from '../config.ts';
import type { TrajectoryStep } from '../session/trajectory/trajectory-step.ts';
import { costNanos, priceFor, pricesFrom } from '../stats/cost.ts';

/**
 * What a task run's model requests cost (issue 29), by the product's own price table: `LLM_PRICES`
 * over `src/stats/prices.ts`, the provider the run used and each request's model (the run's
 * executor model when a step does not name one), cache hits at their own rate, a DeepSeek peak
 * hour at its rate. Nano-dollars, integers, so a sum is exact; a model with no price costs 0.
 */
export function stepsCostNanos(
  steps: TrajectoryStep[],
  config: Pick<Config, 'LLM_PRICES' | 'llmProvider' | 'executorModel'>,
): number {
  const overrides = pricesFrom(config.LLM_PRICES);
  let nanos = 0;
  for (const s of steps) {
    if (s.kind !== 'model' || !s.usage) continue;
    const price = priceFor(overrides, config.llmProvider, s.model ?? config.executorModel);
    nanos += costNanos(price, s.usage, s.at ?? Date.now());
  }
  return nanos;
}
