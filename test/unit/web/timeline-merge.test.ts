import { describe, expect, it } from 'vitest';
import type { ShownStep } from '../../../src/web/api/ticket-trajectory.ts';
import { mergeTimeline } from '../../../src/web/api/timeline-merge.ts';

const ex = (head: string) => ({ head, chars: head.length });
const S = 'exec-T1';
const model = (at: number, calls: string[]): ShownStep => ({
  kind: 'model',
  session: S,
  at,
  ms: 40,
  model: 'm',
  usage: { promptTokens: 100, completionTokens: 5, cacheHitTokens: 0 },
  text: null,
  reasoningChars: 0,
  calls,
});
const tool = (at: number, name: string, extra: object = {}): ShownStep =>
  ({
    kind: 'tool',
    session: S,
    at,
    name,
    callKey: `c${at}`,
    ok: true,
    result: ex('ok'),
    args: ex(name),
    ...extra,
  }) as ShownStep;

/** Issue 49 item 1: the timeline's merge, by time, with steps grouped per turn. */
describe('issue 49: mergeTimeline', () => {
  const steps: ShownStep[] = [
    { kind: 'turn', session: S, at: 10, input: ex('Ticket T1: fix it') },
    model(11, ['reply']),
    tool(12, 'reply', {
      args: ex('to c1 (ack): On it.'),
      message: { to: 'c1', text: 'On it.', outboxKey: 'reply:exec-T1:c12' },
      sent: { at: 13, id: 'm1' },
    }),
    model(14, ['read_file']),
    tool(15, 'read_file'),
    model(16, ['edit_file']),
    tool(17, 'edit_file', { edit: { old: 'a', new: 'b', cut: false }, files: ['x.ts'] }),
    model(18, ['commit_and_push']),
    tool(19, 'commit_and_push', { args: ex('Fix it') }),
    model(20, ['mark_pr_ready']),
    tool(20.5, 'mark_pr_ready'),
    model(20.7, ['report']),
    tool(21, 'report'),
    { kind: 'end', session: S, at: 22, outcome: 'limit', detail: 'requests budget: 9 of 8' },
    { kind: 'pause', at: 23, by: 'ada', via: 'button' },
  ];
  const items = mergeTimeline({
    steps,
    cards: [
      {
        cardId: 'c1',
        at: 9,
        why: 'opened',
        card: { source: 'local', kind: 'message', author: { id: 'ada' }, receivedAt: 8, excerpt: 'Fix it' },
      },
    ],
    reports: [{ status: 'working', summary: 'Asked.', human_action: { question: 'Which?' }, at: 21 }],
    pr: { repo: 'acme/web', number: 4, url: 'https://github.test/acme/web/pull/4' },
  });

  it('puts the request, the acknowledgement, the steps, the commit, the PR made ready, the report and the pause in time order', () => {
    expect(items.map((i) => i.kind)).toEqual([
      'message',
      'bot',
      'steps',
      'commit',
      'pr',
      'report',
      'steps',
      'pause',
    ]);
    expect(items.map((i) => i.at)).toEqual([8, 12, 15, 19, 20.5, 21, 22, 23]);
    expect(items[4]).toMatchObject({ kind: 'pr', event: 'ready', pr: { number: 4 } });
  });

  it('folds each model request into the call it chose, keeps the edit as old → new, and marks a budget stop', () => {
    const run = items[2];
    expect(run).toMatchObject({ kind: 'steps', turn: 1, main: false });
    if (run?.kind !== 'steps') throw new Error('no steps');
    expect(run.rows.map((r) => [r.name, r.model?.tokens])).toEqual([
      ['read_file', 105],
      ['edit_file', 105],
    ]);
    expect(run.rows[1]?.edit).toEqual({ old: 'a', new: 'b', cut: false });
    expect(items[6]).toMatchObject({
      kind: 'steps',
      rows: [],
      outcome: 'limit',
      detail: 'requests budget: 9 of 8',
    });
    // The report tool's call is left to the report record, which carries the question.
    expect(items[5]).toMatchObject({ kind: 'report', report: { human_action: { question: 'Which?' } } });
    expect(items[1]).toMatchObject({ kind: 'bot', purpose: 'ack', text: 'On it.', sent: { id: 'm1' } });
  });
});
