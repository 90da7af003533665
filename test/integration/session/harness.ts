import { afterAll } from 'vitest';
import { z } from 'zod';
import { createModelClient, type ModelClientOptions } from '../../../src/session/model-client.ts';
import { runTurn } from '../../../src/session/run-turn.ts';
import { type AnyTool, defineTool, toolOk } from '../../../src/session/tool.ts';
import type { RunTurnOptions, TurnHooks } from '../../../src/session/turn-run.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { testRedis } from '../../kit/redis.ts';

/**
 * One test file's world: real Redis (fresh prefix per session), one fake model over HTTP, and a
 * `turn()` that runs `runTurn` with fast retries and a fixed system prompt unless told otherwise.
 */
export async function sessionHarness() {
  const { redis, keys: freshKeys } = testRedis();
  const llms: FakeLlm[] = [];
  afterAll(async () => {
    await Promise.all(llms.map((l) => l.close()));
  });

  async function world(modelOpts: Partial<ModelClientOptions> = {}) {
    const llm = await startFakeLlm();
    llms.push(llm);
    const keys = freshKeys();
    const model = createModelClient({
      baseURL: llm.baseURL,
      apiKey: 'test-key',
      model: 'deepseek-flash',
      contract: { provider: 'deepseek', thinking: 'enabled', reasoningEffort: 'high' },
      ...modelOpts,
    });
    const defaultHooks: TurnHooks = {
      systemPrompt: async () => ({ text: 'You are a test session.', revision: 1 }),
    };
    const turn = (opts: Partial<RunTurnOptions> & Pick<RunTurnOptions, 'tools'>) =>
      runTurn({
        sessionId: 'sess-1',
        turnId: 'turn-1',
        input: [{ role: 'user', content: '<card id="c1" source="feishu" kind="message">do it</card>' }],
        model,
        hooks: defaultHooks,
        redis,
        keys,
        retry: { baseDelayMs: 1, maxDelayMs: 5 },
        ...opts,
      });
    return { llm, keys, model, redis, turn };
  }
  return { redis, world };
}

/** A tool with a visible effect: every run appends its text (and idempotency key) to `effects`. */
export function noteTool(effects: { text: string; key: string }[]): AnyTool {
  return defineTool({
    name: 'note',
    description: 'Write a note',
    parameters: z.object({ text: z.string().max(50) }),
    run: (args, ctx) => {
      effects.push({ text: args.text, key: ctx.idempotencyKey });
      return toolOk(`noted ${args.text}`);
    },
  });
}
