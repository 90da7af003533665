import { z } from 'zod';
import type { ModelUsage } from '../session/model-reply.ts';
import { PRICES, type Price, type PriceTable, type Rates } from './prices.ts';

/**
 * Issue 33 item 5: what a model request cost, in nano-dollars (10⁻⁹ USD). Integers, so Redis sums
 * them with HINCRBY; a price with up to three decimals per million tokens is exact at this unit.
 */
export const NANOS_PER_USD = 1e9;

const rate = z.number().min(0).max(10_000);
const RatesSchema = z.object({
  input: rate,
  cacheHit: rate,
  output: rate,
  cacheWrite: rate.exactOptional(),
});
const hour = z.number().int().min(0).max(24);
const PriceSchema = RatesSchema.extend({
  peak: RatesSchema.extend({ hoursUtc: z.array(z.tuple([hour, hour])).max(24) }).exactOptional(),
}) satisfies z.ZodType<Price, unknown>;

/** `LLM_PRICES`: provider → model → price, the built-in table's shape. */
export const PriceTableSchema = z.record(
  z.string().min(1).max(64),
  z.record(z.string().min(1).max(200), PriceSchema),
) satisfies z.ZodType<PriceTable, unknown>;

/** Parses `LLM_PRICES` (already known valid by config) into a table; empty without one. */
export function pricesFrom(json: string | undefined): PriceTable {
  return json ? PriceTableSchema.parse(JSON.parse(json)) : {};
}

/** The exact name, else the longest listed prefix (`claude-sonnet-4` prices `claude-sonnet-4-6`). */
function lookUp(models: Record<string, Price> | undefined, model: string): Price | undefined {
  if (!models) return undefined;
  if (models[model]) return models[model];
  const prefix = Object.keys(models)
    .filter((m) => model.startsWith(m))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? models[prefix] : undefined;
}

/**
 * The price of `model` at `provider`: the override first, then the built-in table; a
 * `compatible` endpoint is looked up under every provider. Undefined: unknown, counted as free.
 */
export function priceFor(overrides: PriceTable, provider: string, model: string): Price | undefined {
  for (const table of [overrides, PRICES]) {
    const own = lookUp(table[provider], model);
    if (own) return own;
  }
  if (provider !== 'compatible') return undefined;
  for (const table of [overrides, PRICES])
    for (const models of Object.values(table)) {
      const any = lookUp(models, model);
      if (any) return any;
    }
  return undefined;
}

/** The rates in force at `at`: the peak rates inside their UTC hours, else the base ones. */
export function ratesAt(price: Price, at: number): Rates {
  const h = new Date(at).getUTCHours();
  const { peak } = price;
  return peak?.hoursUtc.some(([from, to]) => h >= from && h < to) ? peak : price;
}

/** One request's cost in nano-dollars; cache writes (Anthropic) at their own rate when told apart. */
export function costNanos(
  price: Price | undefined,
  usage: ModelUsage & { cacheWriteTokens?: number },
  at: number,
): number {
  if (!price) return 0;
  const r = ratesAt(price, at);
  const hit = Math.min(usage.cacheHitTokens, usage.promptTokens);
  const write = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - hit);
  const miss = usage.promptTokens - hit - write;
  const perMillion =
    miss * r.input + hit * r.cacheHit + write * (r.cacheWrite ?? r.input) + usage.completionTokens * r.output;
  // USD per million tokens × tokens = 10⁻⁶ USD = 1000 nano-dollars.
  return Math.round(perMillion * 1000);
}

export const usdOf = (nanos: number): number => nanos / NANOS_PER_USD;
export const nanosOf = (usd: number): number => Math.round(usd * NANOS_PER_USD);
