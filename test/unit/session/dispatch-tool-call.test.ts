import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolCall } from '../../../src/session/chat-message.ts';
import { dispatchToolCall, toolResultText } from '../../../src/session/dispatch-tool-call.ts';
import { defineTool, toolError, toolOk } from '../../../src/session/tool.ts';

const effects: string[] = [];
const reply = defineTool({
  name: 'reply',
  description: 'Reply to a card',
  parameters: z.object({ to: z.string(), text: z.string() }),
  run: (args) => {
    if (args.text.split(/\s+/).length > 100) return toolError('a reply is at most 100 words');
    effects.push(`${args.to}:${args.text}`);
    return toolOk('sent');
  },
});
const ctx = { sessionId: 's1', toolCallId: 'c1', idempotencyKey: 's1:0:c1' };
const call = (name: string, args: string): ToolCall => ({
  id: 'c1',
  type: 'function',
  function: { name, arguments: args },
});

describe('dispatchToolCall', () => {
  it('CONTRACT model side: arguments that fail the schema answer an error naming the field, and run nothing', async () => {
    effects.length = 0;
    const result = await dispatchToolCall([reply], call('reply', JSON.stringify({ to: 'c1' })), ctx);
    expect(result.ok).toBe(false);
    expect(toolResultText(result)).toMatch(/^Error: invalid arguments for reply/);
    expect(toolResultText(result)).toContain('text');
    expect(effects).toEqual([]);
  });

  it('CONTRACT model side: an unknown tool answers an error listing the tools that exist', async () => {
    const result = await dispatchToolCall([reply], call('sleep', '{}'), ctx);
    expect(result).toEqual({ ok: false, error: 'unknown tool "sleep"; the tools are: reply' });
  });

  it('arguments that are not JSON answer an error, and run nothing', async () => {
    effects.length = 0;
    const result = await dispatchToolCall([reply], call('reply', '{"to":'), ctx);
    expect(result.ok).toBe(false);
    expect(effects).toEqual([]);
  });

  it('valid arguments reach run typed, and a rule it breaks is its own error result (R-D1)', async () => {
    effects.length = 0;
    expect(await dispatchToolCall([reply], call('reply', '{"to":"c1","text":"on it"}'), ctx)).toEqual(
      toolOk('sent'),
    );
    const long = Array.from({ length: 101 }, () => 'word').join(' ');
    const refused = await dispatchToolCall(
      [reply],
      call('reply', JSON.stringify({ to: 'c1', text: long })),
      ctx,
    );
    expect(refused).toEqual(toolError('a reply is at most 100 words'));
    expect(effects).toEqual(['c1:on it']);
  });

  it('an empty arguments string counts as no arguments', async () => {
    const ping = defineTool({
      name: 'ping',
      description: 'p',
      parameters: z.object({}),
      run: () => toolOk('pong'),
    });
    expect(await dispatchToolCall([ping], call('ping', ''), ctx)).toEqual(toolOk('pong'));
  });
});
