import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/session/chat-message.ts';
import { freshContext } from '../../../../src/session/context/context-state.ts';
import { estimateTextTokens } from '../../../../src/session/context/count-tokens.ts';
import { renderSteps } from '../../../../src/session/context/summarise-steps.ts';

const steps = (n: number, chars: number): ChatMessage[] => [
  { role: 'user', content: '<card id="c9" source="github" kind="comment">fix the login</card>' },
  ...Array.from({ length: n }, (_, i): ChatMessage[] => [
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: `k${i}`, type: 'function', function: { name: 'read_file', arguments: `{"path":"f${i}"}` } },
      ],
    },
    { role: 'tool', tool_call_id: `k${i}`, content: `START f${i} ${'y'.repeat(chars)} STOP f${i}` },
  ]).flat(),
];

describe('renderSteps (R-H2: what the summariser reads)', () => {
  it('R-H2: fits the budget by shortening every message alike, keeping each one’s head and tail and every call', () => {
    const messages = steps(30, 20_000);
    const input = {
      messages,
      state: { ...freshContext(), summary: 'earlier: read f-1' },
      elided: freshContext(),
      from: 0,
      to: messages.length,
      inputTokens: 8_000,
      summaryTokens: 1_000,
    };
    const text = renderSteps(input, input.inputTokens);
    expect(estimateTextTokens(text)).toBeLessThanOrEqual(8_000);
    expect(text).toContain('[previous summary]\nearlier: read f-1');
    expect(text).toContain('<card id="c9"');
    for (let i = 0; i < 30; i++) {
      expect(text).toContain(`read_file({"path":"f${i}"}) id=k${i}`);
      expect(text).toContain(`START f${i}`);
      expect(text).toContain(`STOP f${i}`);
    }
  });

  it('R-H2: under the budget the steps go whole', () => {
    const messages = steps(3, 100);
    const text = renderSteps(
      {
        messages,
        state: freshContext(),
        elided: freshContext(),
        from: 0,
        to: 7,
        inputTokens: 10_000,
        summaryTokens: 500,
      },
      10_000,
    );
    expect(text).toContain(`START f2 ${'y'.repeat(100)} STOP f2`);
  });
});
