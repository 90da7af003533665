import type { StepRecord } from './step-log.ts';
import type { TurnOutcome } from './turn-outcome.ts';
import type { TurnRun } from './turn-run.ts';

/**
 * How a turn ended, as its trajectory shows it (issue 17): a pause, a shutdown hand-over, a
 * budget that tripped (which one and by how much) or a model that could not be reached.
 */
export function endRecord(run: TurnRun, outcome: TurnOutcome): StepRecord {
  return {
    kind: 'end',
    at: run.now(),
    index: run.messages.length,
    outcome: outcome.kind,
    detail: detailOf(outcome),
  };
}

function detailOf(o: TurnOutcome): string {
  switch (o.kind) {
    case 'ended':
      return 'answered without tool calls';
    case 'stopped':
      return `${o.reason}, before the next ${o.before === 'model_request' ? 'model request' : 'tool call'}`;
    case 'limit':
      return `${o.limit} budget: ${o.detail}`;
    case 'failed':
      return o.reason;
  }
}
