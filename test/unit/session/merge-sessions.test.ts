import { describe, expect, it } from 'vitest';
import { mergeSessions } from '../../../src/session/trajectory/merge-sessions.ts';
import type { TrajectoryStep } from '../../../src/session/trajectory/trajectory-step.ts';

const end = (session: string, at: number): TrajectoryStep => ({ kind: 'end', session, at, outcome: 'ended' });
const untimed = (session: string): TrajectoryStep => ({
  kind: 'turn',
  session,
  input: { head: '', chars: 0 },
});

describe('issue 17: several sessions’ steps in one trajectory', () => {
  it('merges by time, each session keeping its order; equal times keep the earlier list first', () => {
    const main = [end('main-1', 10), end('main-1', 30), end('main-2', 50)];
    const exec = [end('exec-T1', 10), end('exec-T1', 20), end('exec-T1', 40)];
    expect(mergeSessions([main, exec]).map((s) => `${'session' in s ? s.session : ''}@${s.at}`)).toEqual([
      'main-1@10',
      'exec-T1@10',
      'exec-T1@20',
      'main-1@30',
      'exec-T1@40',
      'main-2@50',
    ]);
  });

  it('a step without a time follows the one before it in its own session', () => {
    const merged = mergeSessions([
      [end('main-1', 5), untimed('main-1'), end('main-1', 60)],
      [end('exec-T1', 20)],
    ]);
    expect(merged.map((s) => `${'session' in s ? s.session : ''}@${s.at ?? '-'}`)).toEqual([
      'main-1@5',
      'main-1@-',
      'exec-T1@20',
      'main-1@60',
    ]);
    expect(mergeSessions([])).toEqual([]);
  });
});
