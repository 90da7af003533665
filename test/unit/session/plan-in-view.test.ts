import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/session/chat-message.ts';
import { planInView } from '../../../src/session/context/plan-in-view.ts';

const planCall = (id: string, args: unknown): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'update_plan', arguments: JSON.stringify(args) } }],
});

describe('issue 48: the plan goes back in view after a compaction', () => {
  it('issue 48: the newest well-formed update_plan call is the plan; none set is none shown', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Ticket T1: fix it' },
      planCall('a', { steps: [{ step: 'Read', status: 'in_progress' }] }),
      { role: 'tool', tool_call_id: 'a', content: 'plan updated' },
      planCall('b', {
        steps: [
          { step: 'Read', status: 'completed' },
          { step: 'Fix', status: 'in_progress' },
          { step: 'Ship', status: 'pending' },
        ],
      }),
      { role: 'tool', tool_call_id: 'b', content: 'plan updated' },
      planCall('c', { steps: 'not a list' }),
      { role: 'tool', tool_call_id: 'c', content: 'Error: invalid' },
    ];
    expect(planInView(messages)).toBe(
      'Your plan, as you last set it with update_plan (keep it current with update_plan):\n\n- [x] Read\n- [>] Fix\n- [ ] Ship',
    );
    expect(planInView(messages.slice(0, 1))).toBeUndefined();
  });
});
