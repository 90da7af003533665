import { inSpan } from '../src/tracing/in-span.ts';
import { withTraceContext } from '../src/tracing/job-context.ts';
import { startTracing } from '../src/tracing/start.ts';
import { startFakeOtlp } from '../test/kit/fake-otlp.ts';
import type { BenchRow } from './row.ts';

const CALLS_OFF = 200_000;
const CALLS_ON = 20_000;
const ROUNDS = 6;

/** What one traced step does: a span around the work, and the context put in the job it queues. */
const traced = () =>
  inSpan('bench.step', { 'switchyard.card.id': 'feishu-0123456789abcdef' }, async () =>
    withTraceContext({ cardId: 'feishu-0123456789abcdef' }),
  );
/** The same work without tracing: the same-run baseline. */
const plain = async () => ({ cardId: 'feishu-0123456789abcdef' });

async function time(fn: () => Promise<unknown>, calls: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i++) await fn();
  return performance.now() - started;
}

/** Alternating rounds of traced and plain calls, so load on the machine falls on both alike. */
async function compare(calls: number): Promise<{ traced: number; plain: number }> {
  let t = 0;
  let p = 0;
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) p += await time(plain, calls);
    t += await time(traced, calls);
    if (r % 2 === 1) p += await time(plain, calls);
  }
  const us = (ms: number) => (ms * 1000) / (ROUNDS * calls);
  return { traced: us(t), plain: us(p) };
}

/**
 * Issue 17: what tracing costs a step. Off (no OTEL_EXPORTER_OTLP_ENDPOINT: the API's no-op
 * tracer, no SDK loaded) and on (the product's own `startTracing`: batch processor, OTLP/HTTP JSON
 * to a loopback collector), each against a plain async call in the same run. The off rows run
 * first: registering the SDK cannot be undone in a process.
 */
export async function benchTracing(): Promise<BenchRow[]> {
  const off = await compare(CALLS_OFF);
  const collector = await startFakeOtlp();
  const tracing = await startTracing({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_SERVICE_NAME: 'bench',
    ROLE: 'all',
  });
  try {
    const on = await compare(CALLS_ON);
    await tracing?.shutdown();
    return [
      {
        name: 'tracing off: span + job context per step',
        value: off.traced,
        unit: 'µs/step',
        baseline: off.plain,
        ratio: off.traced / off.plain,
        note: `plain async call as baseline; overhead ${(off.traced - off.plain).toFixed(3)} µs, ${ROUNDS}×${CALLS_OFF} calls`,
      },
      {
        name: 'tracing on: span + job context per step',
        value: on.traced,
        unit: 'µs/step',
        baseline: on.plain,
        ratio: on.traced / on.plain,
        note: `batch processor, OTLP/JSON to loopback; ${collector.spans.length} spans received of ${ROUNDS * CALLS_ON} (the batch queue drops past 2048 waiting), ${ROUNDS}×${CALLS_ON} calls`,
      },
    ];
  } finally {
    await collector.close();
  }
}
