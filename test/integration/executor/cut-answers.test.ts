import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { lastToolResults } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send } from '../routing/helpers.ts';
import { executorRequests, startWorld, type World } from './harness.ts';

/**
 * Issue 28 "cut and stalled answers": every request carries `max_tokens`; an answer the cap cut
 * inside a tool call is asked for once more with a note saying why and how; text cut there is
 * continued once; a stream that stalls, or that DeepSeek stops for want of capacity, is retried.
 * The fake model cuts its answers at the request's `max_tokens` as DeepSeek does.
 */
describe('answers cut at the output cap, or stalled (issue 28)', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  const ack = (_r: RecordedRequest, card: string) => toolCalls(['reply', { to: card, text: 'On it.' }]);
  const app = (world: World | undefined) => {
    if (!world) throw new Error('no world');
    return world.app;
  };
  const last = (req: RecordedRequest | undefined) => req?.messages.at(-1);

  it('issue 28: a write_file cut by finish_reason "length" is asked for once more with a note naming the tool and edit_file, and the smaller call runs', async () => {
    w = await startWorld({ LLM_MAX_TOKENS: '300' });
    const big = `export const data = "${'x'.repeat(4000)}";\n`;
    const seen = executorRequests(w.llm, [
      ack,
      () => toolCalls(['write_file', { path: 'src/data.ts', content: big }]),
      () => toolCalls(['write_file', { path: 'src/data.ts', content: 'export const data = "x";\n' }]),
      () => toolCalls(['report', { status: 'working', summary: 'Data module written.' }]),
    ]);
    await send(w.app.ctx, localMessage('Please add a data module to acme/web'));
    await waitFor(() => seen.length >= 5, 'the executor recovered and reported', 30_000);
    expect(seen.every((r) => r.body.max_tokens === 300)).toBe(true);
    // Request 3 follows the cut answer: nothing of it was stored, a note was added instead.
    const note = last(seen[2]);
    expect(note?.role).toBe('user');
    expect(note?.content).toContain('cut at the output limit (300 tokens) inside the `write_file` call');
    expect(note?.content).toContain('`edit_file`');
    expect(
      seen[2]?.messages.some((m) => m.tool_calls?.some((c) => c.function.arguments.includes('xxxx'))),
    ).toBe(false);
    expect(lastToolResults(seen[3] as RecordedRequest).join()).toContain('wrote src/data.ts');
    // The recovery cost one request more than the work itself (ack, cut, write, report, end).
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toHaveLength(5);
  });

  it('issue 28: a second cut inside a tool call in the same turn fails the turn, naming LLM_MAX_TOKENS', async () => {
    w = await startWorld({ LLM_MAX_TOKENS: '200' });
    const big = 'y'.repeat(3000);
    const seen = executorRequests(w.llm, [
      ack,
      () => toolCalls(['write_file', { path: 'a.txt', content: big }]),
      () => toolCalls(['write_file', { path: 'a.txt', content: big }]),
    ]);
    await send(w.app.ctx, localMessage('Please write a big file in acme/web'));
    await waitFor(() => seen.length >= 3, 'the second cut', 30_000);
    await new Promise((r) => setTimeout(r, 500));
    // One note, then no fourth request: the turn failed instead of looping.
    expect(seen).toHaveLength(3);
    expect(seen.filter((r) => last(r)?.content?.includes('[host]'))).toHaveLength(1);
    const told = await waitFor(async () => {
      const said = (await botMessages(app(w).ctx)).map((m) => m.text).join('\n');
      return said.includes('LLM_MAX_TOKENS') ? said : undefined;
    }, 'the requester told why');
    expect(told).toContain('inside tool call "write_file": raise LLM_MAX_TOKENS');
  });

  it('issue 28: text cut at the cap is continued once, not taken for the end of the turn', async () => {
    w = await startWorld({ LLM_MAX_TOKENS: '100' });
    const seen = executorRequests(w.llm, [
      ack,
      () => text(`Here is my analysis: ${'the login flow redirects twice; '.repeat(30)}`),
      () => toolCalls(['report', { status: 'done', summary: 'Explained the login flow.' }]),
      () => text('Reported.'),
    ]);
    await send(w.app.ctx, localMessage('Please explain the login flow of acme/web'));
    await waitFor(() => seen.length >= 4, 'the continuation and the report', 30_000);
    const cut = seen[2]?.messages.at(-2);
    expect(cut?.role).toBe('assistant');
    // The cap (100 tokens, 400 characters) counts the answer's reasoning too (DeepSeek's thinking mode).
    const reasoning = `Thinking about the ${seen[1]?.messages.length} messages so far.`;
    expect(cut?.content?.length).toBe(400 - reasoning.length);
    expect(last(seen[2])?.content).toContain('Continue exactly where it stopped');
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toHaveLength(4);
  });

  it('issue 28: a stream that stalls is dropped after LLM_STREAM_IDLE_MS and asked again; DeepSeek’s insufficient_system_resource is retried like a 503', async () => {
    w = await startWorld({ LLM_STREAM_IDLE_MS: '800' });
    const seen = executorRequests(w.llm, [
      ack,
      () => ({ ...toolCalls(['read_file', { path: 'README.md' }]), stallAfterEvents: 3 }),
      () => ({ ...text('partial'), finishReason: 'insufficient_system_resource' }),
      () => toolCalls(['read_file', { path: 'README.md' }]),
    ]);
    const started = Date.now();
    await send(w.app.ctx, localMessage('Please read the README of acme/web'));
    await waitFor(() => seen.length >= 5, 'the read after two failed answers', 30_000);
    expect(Date.now() - started).toBeLessThan(20_000);
    // The retries asked the same thing: nothing of the stalled or stopped answers was stored.
    expect(seen[2]?.messages.length).toBe(seen[1]?.messages.length);
    expect(seen[3]?.messages.length).toBe(seen[1]?.messages.length);
    expect(lastToolResults(seen[4] as RecordedRequest).join()).toContain('# web');
  });
});
