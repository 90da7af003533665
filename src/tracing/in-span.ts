import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * The product's tracer (issue 17). Until `startTracing` registers a provider — and never, when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is unset — it is the API's no-op tracer: spans record nothing and
 * cost a function call.
 */
const tracer = trace.getTracer('switchyard');

/**
 * Whether spans are recorded: `startTracing` turns it on with its provider. Until then `inSpan`
 * runs its function straight away with a span that records nothing — not even the no-op tracer's
 * context switch (issue 18: a webhook's answer runs two spans).
 */
let recording = false;
const NOT_RECORDED: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export function setSpansRecorded(on: boolean): void {
  recording = on;
}

/** BullMQ's "move this job and stop": the job is not failing, it waits (rate limit, turn lock). */
const NOT_FAILURES = new Set(['DelayedError', 'WaitingChildrenError']);

export interface SpanOptions {
  kind?: SpanKind;
  /** The context to start under: the active one unless given (a job's, or a fresh root). */
  parent?: Context;
}

/**
 * Runs `fn` inside a new active span and ends it when `fn` settles. A throw marks the span as
 * an error by the error's name only: messages can quote outside text, and spans carry ids only.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  opts: SpanOptions = {},
): Promise<T> {
  if (!recording) {
    try {
      return fn(NOT_RECORDED);
    } catch (err) {
      return Promise.reject(err);
    }
  }
  return tracer.startActiveSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes },
    opts.parent ?? context.active(),
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        const type = err instanceof Error ? err.name : typeof err;
        span.setAttribute('error.type', type);
        if (!NOT_FAILURES.has(type)) span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Adds attributes to the active span (what is known only at the end: an outcome, token counts). */
export function annotateSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}
