import { describe, expect, it } from 'vitest';
import { renderPlan } from '../../../src/executor/plan/plan-in-view.ts';

describe('issue 48: the plan goes back in view after a compaction', () => {
  it('issue 48: the stored plan is shown with each step marked', () => {
    expect(
      renderPlan([
        { step: 'Read', status: 'completed' },
        { step: 'Fix', status: 'in_progress' },
        { step: 'Ship', status: 'pending' },
      ]),
    ).toBe(
      'Your plan, as you last set it with update_plan (keep it current with update_plan):\n\n- [x] Read\n- [>] Fix\n- [ ] Ship',
    );
  });
});
