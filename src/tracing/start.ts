import { hostname } from 'node:os';
import type { Config } from '../config.ts';
import { setSpansRecorded } from './in-span.ts';

export interface Tracing {
  /** Exports the spans still buffered, then stops; call it last at shutdown. */
  shutdown(): Promise<void>;
}

type TracingConfig = Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME' | 'ROLE'>;

/** Where OTLP/HTTP takes traces: `<endpoint>/v1/traces`, as the OpenTelemetry specification says. */
export function tracesUrl(endpoint: string): string {
  return new URL('v1/traces', endpoint.endsWith('/') ? endpoint : `${endpoint}/`).href;
}

/**
 * Starts exporting spans (issue 17) when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, else does nothing:
 * the SDK is not even loaded, and every span helper stays the API's no-op. Spans go in batches as
 * OTLP/HTTP JSON; context crosses processes as W3C `traceparent` (in job data, `job-context.ts`).
 */
export async function startTracing(config: TracingConfig): Promise<Tracing | undefined> {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return undefined;
  const [sdk, { OTLPTraceExporter }, { resourceFromAttributes }, { W3CTraceContextPropagator }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/core'),
    ]);
  const provider = new sdk.NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': config.OTEL_SERVICE_NAME,
      'service.instance.id': `${hostname()}:${process.pid}`,
      'switchyard.role': config.ROLE,
    }),
    spanProcessors: [new sdk.BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(endpoint) }))],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  setSpansRecorded(true);
  return {
    shutdown: () => {
      setSpansRecorded(false);
      return provider.shutdown();
    },
  };
}
