import { context, propagation, trace } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../../../src/tracing/start.ts';
import { waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { type FakeOtlp, type ReceivedSpan, startFakeOtlp } from '../../kit/fake-otlp.ts';
import { groupMention, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness } from '../feishu/harness.ts';

/**
 * Issue 17: the main session's leg of a trace. A request in a chat that has a ticket goes to the
 * main session (issue 18), so its trace runs webhook → ingest → route → main turn → the routing
 * tool → the executor turn it queued → the acknowledgement's delivery. One process here (the
 * product's own `startTracing`, exporting to a loopback collector); the cross-process trace is
 * `test/e2e/one-trace.test.ts`.
 */
describe('issue 17: a card routed by the main session stays in its webhook trace', () => {
  let otlp: FakeOtlp;
  let llm: FakeLlm;
  let h: FeishuHarness;
  let tracing: Tracing | undefined;
  const chatId = `oc_main_trace_${Date.now()}`;
  const send = async (text: string) => {
    const res = await sendFeishuEvent(h.hook, groupMention(text, h.feishu.bot.openId, { chatId }), {
      encryptKey: ENCRYPT_KEY,
    });
    expect(res.status).toBe(200);
  };

  beforeEach(async () => {
    otlp = await startFakeOtlp();
    // Read by the SDK's batch processor: export within 50 ms instead of five seconds.
    process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
    tracing = await startTracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_SERVICE_NAME: 'switchyard-test',
      ROLE: 'all',
    });
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    h = await startFeishuHarness({ LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' });
  });
  afterEach(async () => {
    await h.close();
    await tracing?.shutdown();
    // The API's globals back to no-op, as they were before this test.
    trace.disable();
    propagation.disable();
    context.disable();
    delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    await Promise.all([llm.close(), otlp.close()]);
  });

  it('issue 17: webhook → ingest → route (candidate) → main turn → orchestrator_route → executor turn → delivery, one trace', async () => {
    // The first request opens a ticket by code; the chat then has one, so the second is the main session's.
    await send('please look at the export button');
    await waitFor(() => h.feishu.messages.some((m) => m.via === 'reply'), 'the first acknowledgement');
    await send('and also the import page');

    const mainRoute = () =>
      otlp.spans.find(
        (s) => s.name === 'card.route' && s.attributes['switchyard.route.outcome'] === 'candidate',
      );
    const inTrace = () => otlp.spans.filter((s) => s.traceId === mainRoute()?.traceId);
    const has = (name: string, where: (s: ReceivedSpan) => boolean = () => true) =>
      inTrace().some((s) => s.name === name && where(s));
    await waitFor(
      () =>
        mainRoute() &&
        has('main.turn') &&
        has('executor.turn', (s) => s.attributes['switchyard.turn.outcome'] === 'ended') &&
        has('outbox.deliver', (s) => s.attributes['switchyard.outbox.op'] === 'feishu.reply') &&
        has('POST /webhooks/feishu'),
      'the main session trace exported',
      30_000,
    );

    const spans = inTrace();
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parent = (s: ReceivedSpan | undefined) => (s ? byId.get(s.parentSpanId) : undefined);
    const find = (name: string, where: (s: ReceivedSpan) => boolean = () => true) =>
      spans.find((s) => s.name === name && where(s));

    const webhook = find('POST /webhooks/feishu');
    const route = mainRoute();
    expect(parent(parent(route))).toBe(webhook);
    expect(parent(route)?.name).toBe('card.ingest');

    const mainTurn = find('main.turn');
    expect(parent(mainTurn)).toBe(route);
    const mainChat = find('chat deepseek-flash', (s) => s.parentSpanId === mainTurn?.spanId);
    expect(mainChat?.attributes['switchyard.session.kind']).toBe('main');
    const routeTool = find('execute_tool orchestrator_route');
    expect(routeTool && [mainTurn?.spanId, mainChat?.spanId]).toContain(routeTool?.parentSpanId);
    expect(routeTool?.attributes['switchyard.tool.outcome']).toBe('ok');

    // The routing tool opened the ticket and queued its turn: the turn continues from the tool.
    const turn = find('executor.turn', (s) => s.attributes['switchyard.turn.outcome'] === 'ended');
    expect(parent(turn)).toBe(routeTool);
    const ackTool = find('execute_tool reply');
    const ackDelivery = find(
      'outbox.deliver',
      (s) => s.attributes['switchyard.outbox.op'] === 'feishu.reply',
    );
    expect(parent(ackDelivery)).toBe(ackTool);
    let up = parent(ackTool);
    while (up && up !== turn) up = parent(up);
    expect(up).toBe(turn);

    // The first request's trace is another one: one webhook, one trace.
    const traces = new Set(
      otlp.spans.filter((s) => s.name === 'POST /webhooks/feishu').map((s) => s.traceId),
    );
    expect(traces.size).toBe(2);
  });
});
