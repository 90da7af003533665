import { ProxyTracerProvider, propagation, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { annotateSpan, inSpan } from '../../../src/tracing/in-span.ts';
import { withTraceContext } from '../../../src/tracing/job-context.ts';
import { startTracing, tracesUrl } from '../../../src/tracing/start.ts';

describe('issue 17: tracing costs nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set', () => {
  it('issue 17: without the variable no provider is registered and spans record nothing', async () => {
    const config = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    expect(config.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(await startTracing(config)).toBeUndefined();

    // The global provider is still the API's proxy over its no-op provider.
    const provider = trace.getTracerProvider();
    expect(provider).toBeInstanceOf(ProxyTracerProvider);
    expect((provider as ProxyTracerProvider).getDelegate().constructor.name).toBe('NoopTracerProvider');
    expect(propagation.fields()).toEqual([]);

    const seen = await inSpan('card.ingest', { 'switchyard.card.id': 'c1' }, async (span) => {
      annotateSpan({ 'switchyard.ingest.status': 'new' });
      return { recording: span.isRecording(), traceId: span.spanContext().traceId };
    });
    expect(seen).toEqual({ recording: false, traceId: '0'.repeat(32) });
  });

  it('issue 17: tracing off, job data is queued exactly as it was (no trace field, same object)', async () => {
    const data = { cardId: 'feishu-abc' };
    const inside = await inSpan('card.ingest', {}, async () => withTraceContext(data));
    expect(inside).toBe(data);
    expect(inside).not.toHaveProperty('traceContext');
  });

  it('issue 17: a span that throws rethrows the same error', async () => {
    const err = new Error('boom');
    await expect(
      inSpan('x', {}, async () => {
        throw err;
      }),
    ).rejects.toBe(err);
  });

  it('issue 17: the endpoint is a URL (one clear configuration error otherwise); traces go to <endpoint>/v1/traces', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(ConfigError);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(loadConfig({}).OTEL_SERVICE_NAME).toBe('switchyard');
    expect(tracesUrl('http://127.0.0.1:4318')).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesUrl('https://otel.example.com/otlp/')).toBe('https://otel.example.com/otlp/v1/traces');
  });
});
