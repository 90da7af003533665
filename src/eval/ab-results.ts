import type { ArmComparison } from './arm-comparison.ts';
import { compareArms } from './arm-comparison.ts';
import type { EvalRecord } from './eval-record.ts';
import type { Arm } from './prompt-arms.ts';
import { armsTable, type RunSummary, summarise } from './results.ts';

/**
 * What an A/B run (`--prompts`) adds to `results.json` and the printed table (issue 29): each
 * arm's summary, the paired comparison, and the table of both.
 */
export function abResults(
  records: EvalRecord[],
  arms: Arm[],
): { arms: Record<string, RunSummary>; comparison: ArmComparison; table: string } {
  const of = (label: Arm['label']) => summarise(records.filter((r) => r.arm === label));
  const summaries = { published: of('published'), candidate: of('candidate') };
  const comparison = compareArms(records);
  const name = (label: Arm['label']) => arms.find((a) => a.label === label)?.name ?? label;
  const names = { published: name('published'), candidate: name('candidate') };
  return { arms: summaries, comparison, table: armsTable(names, summaries, comparison) };
}
