import { describe, expect, it } from 'vitest';
import { guardTools, MAX_SHELL_TIMEOUT_S, MAX_TASK_WAIT_S } from '../../../src/router/main/guard-tools.ts';
import type { ToolResult } from '../../../src/session/tool.ts';

const call = { sessionId: 'main-1', toolCallId: 'c1', idempotencyKey: 'main-1:c1' };
const run = async (name: string, args: unknown): Promise<ToolResult> => {
  const tool = guardTools().find((t) => t.name === name);
  if (!tool) throw new Error(`no guard tool ${name}`);
  return tool.run(tool.parameters.parse(args), call);
};

describe('main-session wait guards (R-B3)', () => {
  it('R-B3: the limits are 30 s for shell time-outs and 5 s for task waits', () => {
    expect(MAX_SHELL_TIMEOUT_S).toBe(30);
    expect(MAX_TASK_WAIT_S).toBe(5);
  });

  it('R-B3: sleep is always refused', async () => {
    expect(await run('sleep', { seconds: 1 })).toEqual({
      ok: false,
      error: expect.stringMatching(/never waits \(R-B3\)/),
    });
  });

  it('R-B3: a shell time-out over 30 s is refused as a wait; within it the shell is still no tool of the router', async () => {
    expect(await run('shell', { command: 'make', timeout: 31 })).toEqual({
      ok: false,
      error: 'refused: shell time-out 31 s is over 30 s (R-B3)',
    });
    const within = await run('shell', { command: 'make', timeout: 30 });
    expect(within).toEqual({ ok: false, error: expect.stringMatching(/routes only.*R-B1/) });
  });

  it('R-B3: a task wait over 5 s is refused naming the limit; a short one is refused as waiting', async () => {
    expect(await run('task_wait', { seconds: 6 })).toEqual({
      ok: false,
      error: 'refused: task wait 6 s is over 5 s (R-B3)',
    });
    expect(await run('task_wait', { seconds: 5 })).toEqual({
      ok: false,
      error: expect.stringMatching(/never waits/),
    });
  });
});
