import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/session/chat-message.ts';
import type { StepRecord } from '../../../../src/session/step-log.ts';
import type { ToolResult } from '../../../../src/session/tool.ts';
import { exitCodeOf } from '../../../../src/session/trajectory/call-summary.ts';
import { excerpt, FULL_CAP } from '../../../../src/session/trajectory/excerpt.ts';
import { mergeEvents } from '../../../../src/session/trajectory/merge-events.ts';
import { sessionTrajectory } from '../../../../src/session/trajectory/session-trajectory.ts';

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

const messages: ChatMessage[] = [
  { role: 'user', content: 'Ticket T9: fix it' },
  { role: 'assistant', content: null, tool_calls: [call('c1', 'run_command', { command: 'npm test' })] },
  { role: 'tool', tool_call_id: 'c1', content: 'exit 1\nfailed' },
  {
    role: 'assistant',
    content: null,
    reasoning_content: 'hmm',
    tool_calls: [call('c2', 'write_file', { path: 'a.ts', content: 'x' })],
  },
  { role: 'tool', tool_call_id: 'c2', content: 'refused: not acknowledged' },
];
const results = new Map<string, ToolResult>([
  ['1:c1', { ok: true, content: 'exit 1\nfailed' }],
  ['3:c2', { ok: false, error: 'refused: not acknowledged' }],
]);
const usage = { promptTokens: 100, completionTokens: 5, cacheHitTokens: 80 };
const records: StepRecord[] = [
  { kind: 'turn', at: 10, index: 0, turnId: 'turn-1' },
  { kind: 'model', at: 20, index: 1, ms: 7, model: 'm', revision: 2, usage },
  { kind: 'tool', at: 30, index: 2, ms: 3, key: '1:c1' },
  { kind: 'compaction', at: 35, index: 3, compactions: 1, summarisedBefore: 0, elidedBefore: 2 },
  { kind: 'model', at: 40, index: 3, ms: 9, model: 'm', usage },
  { kind: 'tool', at: 50, index: 4, ms: 1, key: '3:c2' },
  { kind: 'end', at: 60, index: 5, outcome: 'limit', detail: 'tokens budget: 2000000 used' },
];

describe('issue 17: a session’s trajectory from its transcript and step records', () => {
  it('issue 17: steps in transcript order, each with its record; compactions and budget ends placed by index', () => {
    const steps = sessionTrajectory({ id: 'exec-T9', messages, results, records });
    expect(steps.map((s) => s.kind)).toEqual(['turn', 'model', 'tool', 'compaction', 'model', 'tool', 'end']);
    expect(steps[0]).toMatchObject({ at: 10, turnId: 'turn-1', input: { head: 'Ticket T9: fix it' } });
    expect(steps[1]).toMatchObject({ ms: 7, usage, revision: 2, calls: ['run_command'] });
    expect(steps[2]).toMatchObject({
      name: 'run_command',
      ok: true,
      exitCode: 1,
      ms: 3,
      args: { head: 'npm test' },
    });
    expect(steps[4]).toMatchObject({ reasoningChars: 3 });
    expect(steps[5]).toMatchObject({ name: 'write_file', ok: false, files: ['a.ts'] });
    expect(steps[6]).toMatchObject({
      kind: 'end',
      outcome: 'limit',
      detail: expect.stringContaining('tokens'),
    });
  });

  it('issue 17: a transcript stored before step records still shows every step, without times', () => {
    const steps = sessionTrajectory({ id: 's', messages, results, records: [] });
    expect(steps.map((s) => s.kind)).toEqual(['turn', 'model', 'tool', 'model', 'tool']);
    expect(steps.every((s) => s.at === undefined)).toBe(true);
  });

  it('issue 17: a reply names its message and the outbox key its delivery is recorded under', () => {
    const steps = sessionTrajectory({
      id: 'exec-T1',
      messages: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [call('k', 'reply', { to: 'card-1', text: 'On it.' })],
        },
        { role: 'tool', tool_call_id: 'k', content: 'reply queued' },
      ],
      results: new Map([['0:k', { ok: true, content: 'reply queued' }]]),
      records: [],
    });
    expect(steps[1]).toMatchObject({
      message: { to: 'card-1', text: 'On it.', outboxKey: 'reply:exec-T1:0:k' },
    });
  });

  it('issue 17, R-D2: pauses and resumes go before the first step recorded after them', () => {
    const steps = sessionTrajectory({ id: 's', messages, results, records });
    const merged = mergeEvents(steps, [
      { kind: 'pause', at: 25, by: 'ada', via: 'message' },
      { kind: 'resume', at: 33, by: 'ada', via: 'message' },
      { kind: 'pause', at: 99, by: 'circuit breaker', via: 'breaker', detail: 'over 30 messages an hour' },
    ]);
    expect(merged.map((s) => s.kind)).toEqual([
      'turn',
      'model',
      'pause',
      'tool',
      'resume',
      'compaction',
      'model',
      'tool',
      'end',
      'pause',
    ]);
  });
});

describe('issue 17: reading results', () => {
  it('issue 17: the exit code on a command result’s first line, not elsewhere', () => {
    expect(exitCodeOf('exit 0\nok')).toBe(0);
    expect(exitCodeOf('recorded at 0123abcd: exit 2\n')).toBe(2);
    expect(exitCodeOf('timed out after 5 s (killed)\nexit 0')).toBeUndefined();
    expect(exitCodeOf('preexit 3')).toBeUndefined();
  });

  it('issue 17: a long text shows its first line, the whole capped behind it', () => {
    expect(excerpt('one line')).toEqual({ head: 'one line', chars: 8 });
    const long = `first\n${'x'.repeat(FULL_CAP + 1000)}`;
    const e = excerpt(long);
    expect(e.head).toBe('first');
    expect(e.full?.length).toBeLessThan(long.length);
    expect(e.full).toContain('more characters');
  });
});
