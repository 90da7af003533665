import { type Attributes, context, propagation, ROOT_CONTEXT, type Span, SpanKind } from '@opentelemetry/api';
import type { Job } from 'bullmq';
import { inSpan } from './in-span.ts';

/** W3C trace context as it rides in a job's data (`traceparent`, and `tracestate` when set). */
export type TraceCarrier = { traceparent: string; tracestate?: string };

/**
 * Job data carrying the active trace context under `traceContext` (issue 17), so the worker that
 * runs the job continues the trace of whatever queued it — in another process or machine. With
 * tracing off (no propagator registered) the data comes back as it was.
 */
export function withTraceContext<T extends object>(data: T): T & { traceContext?: TraceCarrier } {
  const carrier: Partial<TraceCarrier> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? { ...data, traceContext: carrier as TraceCarrier } : data;
}

/** The carrier of a job's data, if it holds a plausible one (the data is read back from Redis). */
function carrierOf(data: unknown): TraceCarrier | undefined {
  const c = (data as { traceContext?: unknown } | undefined)?.traceContext as
    | Partial<TraceCarrier>
    | undefined;
  if (typeof c?.traceparent !== 'string' || c.traceparent.length > 128) return undefined;
  const state = typeof c.tracestate === 'string' && c.tracestate.length <= 512 ? c.tracestate : undefined;
  return state ? { traceparent: c.traceparent, tracestate: state } : { traceparent: c.traceparent };
}

/**
 * Runs a job's processor inside a consumer span whose parent is the context the job was queued
 * under (a job queued outside any trace starts its own). Attributes name the job, never its data.
 */
export function inJobSpan<T>(
  job: Job,
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const carrier = carrierOf(job.data);
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  const jobAttributes: Attributes = {
    'messaging.system': 'bullmq',
    'messaging.operation.type': 'process',
    'messaging.destination.name': job.queueName,
    'switchyard.job.attempt': job.attemptsStarted,
    ...attributes,
  };
  if (job.id) jobAttributes['messaging.message.id'] = job.id;
  return inSpan(name, jobAttributes, fn, { kind: SpanKind.CONSUMER, parent });
}
