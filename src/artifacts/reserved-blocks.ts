import { reservedOnLine } from '../prompts/reserved-markers.ts';
import type { ArtifactProblem } from './artifact.ts';

/**
 * The reserved tags and headings a role, skill or workflow body uses, one problem per line with
 * its line number in the file (`firstLine` is the body's first line). Ordinary mentions of tools
 * or of these words in prose are fine: only exact tags and heading lines are refused.
 */
export function reservedBlockProblems(body: string, file: string, firstLine: number): ArtifactProblem[] {
  const problems: ArtifactProblem[] = [];
  body.split('\n').forEach((text, i) => {
    const hit = reservedOnLine(text);
    if (!hit) return;
    problems.push({
      file,
      line: firstLine + i,
      code: 'reserved_block',
      message:
        hit.kind === 'tag'
          ? `uses the reserved tag ${hit.found}; the runtime writes that block itself (R-G3)`
          : `uses the reserved heading "${hit.found}"; the runtime writes that heading itself (R-G3)`,
    });
  });
  return problems;
}
