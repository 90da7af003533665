import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createModelClient } from '../../../src/session/model-client.ts';
import { runTurn } from '../../../src/session/run-turn.ts';
import { defineTool, toolOk } from '../../../src/session/tool.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { redisUrl } from '../../kit/redis.ts';
import { sessionHarness } from './harness.ts';

const h = await sessionHarness();

/** Stands for the worker dying mid-call: nothing after it runs on this worker. */
class SimulatedCrash extends Error {
  override name = 'SimulatedCrash' as const;
}

describe('resume', () => {
  it('a turn killed mid-tool-call resumes elsewhere from the last step: done calls are not run again', async () => {
    const w = await h.world();
    const sent: { text: string; key: string }[] = [];
    let crashed = false;
    const send = defineTool({
      name: 'send',
      description: 'Send a message',
      parameters: z.object({ text: z.string() }),
      run: (args, ctx) => {
        if (args.text === 'two' && !crashed) {
          crashed = true;
          throw new SimulatedCrash('worker killed');
        }
        sent.push({ text: args.text, key: ctx.idempotencyKey });
        return toolOk(`sent ${args.text}`);
      },
    });
    w.llm.push(
      toolCalls(['send', { text: 'one' }, 'call_one'], ['send', { text: 'two' }, 'call_two']),
      text('all sent'),
    );

    await expect(w.turn({ tools: [send] })).rejects.toThrow(SimulatedCrash);
    expect(sent.map((s) => s.text)).toEqual(['one']);

    // Another worker: its own Redis connection and model client, the same session and turn id.
    const other = new Redis(redisUrl(), { maxRetriesPerRequest: null });
    try {
      const outcome = await runTurn({
        sessionId: 'sess-1',
        turnId: 'turn-1',
        input: [{ role: 'user', content: 'this input was already appended' }],
        model: createModelClient({
          baseURL: w.llm.baseURL,
          apiKey: 'k',
          model: 'deepseek-flash',
          contract: { provider: 'deepseek', thinking: 'enabled' },
        }),
        tools: [send],
        hooks: { systemPrompt: async () => ({ text: 'system', revision: 1 }) },
        redis: other,
        keys: w.keys,
      });
      expect(outcome).toMatchObject({ kind: 'ended', text: 'all sent', usage: { modelRequests: 2 } });
    } finally {
      other.disconnect();
    }

    expect(sent.map((s) => s.text)).toEqual(['one', 'two']);
    expect(sent[1]?.key).toBe('sess-1:1:call_two');
    expect(w.llm.requests).toHaveLength(2);
    const continued = w.llm.requests[1]?.messages ?? [];
    expect(continued.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(continued.slice(3).map((m) => m.content)).toEqual(['sent one', 'sent two']);
  });

  it('each tool call carries an idempotency key that is the same on every attempt', async () => {
    const w = await h.world();
    const keys: string[] = [];
    let attempts = 0;
    const flaky = defineTool({
      name: 'enqueue',
      description: 'Enqueue an outbox message',
      parameters: z.object({}),
      run: (_args, ctx) => {
        keys.push(ctx.idempotencyKey);
        if (++attempts === 1) throw new SimulatedCrash('died after enqueueing');
        return toolOk('queued');
      },
    });
    w.llm.push(toolCalls(['enqueue', {}, 'call_q']), text('ok'));

    await expect(w.turn({ tools: [flaky] })).rejects.toThrow(SimulatedCrash);
    await w.turn({ tools: [flaky] });

    expect(keys).toEqual(['sess-1:1:call_q', 'sess-1:1:call_q']);
  });
});
