import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP/HTTP JSON export carried it, with its resource's attributes beside it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP `SpanKind`: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status: number;
}

export interface FakeOtlp {
  /** The collector's base URL: `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string;
  spans: ReceivedSpan[];
  /** Every request body as received (decompressed), to search for what must never be exported. */
  bodies: string[];
  /** Requests refused, with the status given. */
  refused: { contentType: string; status: number }[];
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};
type KeyValue = { key: string; value?: AnyValue };

const HEX_TRACE = /^[0-9a-f]{32}$/;
const HEX_SPAN = /^[0-9a-f]{16}$/;

function plainValue(v: AnyValue | undefined): string | number | boolean {
  if (v?.stringValue !== undefined) return v.stringValue;
  if (v?.intValue !== undefined) return Number(v.intValue);
  if (v?.doubleValue !== undefined) return v.doubleValue;
  if (v?.boolValue !== undefined) return v.boolValue;
  return '';
}

const attributesOf = (kvs: KeyValue[] | undefined) =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, plainValue(kv.value)]));

/**
 * Flattens an `ExportTraceServiceRequest` in OTLP/JSON, as strict as a collector: ids must be
 * lowercase hex of the right length (JSON OTLP never uses base64), or the whole request is bad.
 */
function spansOf(body: unknown): ReceivedSpan[] | undefined {
  const out: ReceivedSpan[] = [];
  const resourceSpans = (body as { resourceSpans?: unknown }).resourceSpans;
  if (!Array.isArray(resourceSpans)) return undefined;
  for (const rs of resourceSpans) {
    const resource = attributesOf(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        const parent = s.parentSpanId ?? '';
        if (!HEX_TRACE.test(s.traceId) || !HEX_SPAN.test(s.spanId)) return undefined;
        if (parent !== '' && !HEX_SPAN.test(parent)) return undefined;
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: parent,
          name: s.name,
          kind: s.kind ?? 0,
          attributes: attributesOf(s.attributes),
          resource,
          status: s.status?.code ?? 0,
        });
      }
    }
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

/**
 * An OpenTelemetry collector's OTLP/HTTP trace receiver on loopback (issue 17), for spans
 * exported by other processes. It takes `POST /v1/traces` as JSON only: a collector answers 415
 * to a content type it does not take, and this fake decodes no protobuf, so it says so the same
 * way (a test expecting spans then fails instead of passing on nothing). 404 elsewhere, 400 on a
 * body that is no `ExportTraceServiceRequest`.
 */
export async function startFakeOtlp(): Promise<FakeOtlp> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const refused: FakeOtlp['refused'] = [];
  const server = createServer(async (req, res) => {
    const contentType =
      String(req.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    const answer = (status: number, body: unknown) => {
      if (status >= 400) refused.push({ contentType, status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/v1/traces') return answer(404, { message: 'not found' });
    if (contentType !== 'application/json') return answer(415, { message: `unsupported ${contentType}` });
    const text = (await readBody(req)).toString('utf8');
    let parsed: ReceivedSpan[] | undefined;
    try {
      parsed = spansOf(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (!parsed) return answer(400, { message: 'not an ExportTraceServiceRequest' });
    bodies.push(text);
    spans.push(...parsed);
    return answer(200, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
