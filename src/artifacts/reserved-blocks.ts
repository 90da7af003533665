import type { ArtifactProblem } from './artifact.ts';

/**
 * Headings the runtime writes itself (R-G3): the generated block headings of the assembled
 * prompt (`## Team: …`, `## Skill: …`, `## Role: …`, `## Workflow: …`, the AGENTS.md block) and
 * the code-owned contract headings of `prompts/` (the executor's role and tool catalogue, the
 * environment, the policy, the inferred-ticket note). Matched at any heading level, case-blind.
 */
const RESERVED_HEADINGS: readonly RegExp[] = [
  /^team:/i,
  /^skill:/i,
  /^role:/i,
  /^workflow:/i,
  /^your role:/i,
  /^your tools$/i,
  /^repository instructions \(agents\.md\)$/i,
  /^environment$/i,
  /^policy$/i,
  /^this ticket was inferred$/i,
];

/** Tags of code-owned blocks, opening or closing (agents-fleet's and our AGENTS.md fence). */
const RESERVED_TAG = /<\/?(central-block|core-block|repository-instructions)\b[^>]*>/i;

/** An ATX heading's opening; the rest of the line is read by `headingText`. */
const HEADING_OPEN = /^ {0,3}#{1,6}[ \t]/;

/**
 * The text of an ATX heading line without its optional closing `#`s, or undefined for another
 * line. A scan, not a regex: `(.*?)(?:[ \t]+#+)?[ \t]*$` retried per character, so one long line
 * of a checkout's file took seconds (issue 14 "input costs nothing").
 */
function headingText(line: string): string | undefined {
  const open = HEADING_OPEN.exec(line);
  if (!open) return undefined;
  const text = line.slice(open[0].length).trim();
  let end = text.length;
  while (end > 0 && text.charAt(end - 1) === '#') end--;
  if (end === 0) return '';
  const before = text.charAt(end - 1);
  return end < text.length && (before === ' ' || before === '\t') ? text.slice(0, end).trim() : text;
}

/**
 * The reserved tags and headings a role, skill or workflow body uses, one problem per line with
 * its line number in the file (`firstLine` is the body's first line). Ordinary mentions of tools
 * or of these words in prose are fine: only exact tags and heading lines are refused.
 */
export function reservedBlockProblems(body: string, file: string, firstLine: number): ArtifactProblem[] {
  const problems: ArtifactProblem[] = [];
  body.split('\n').forEach((text, i) => {
    const line = firstLine + i;
    const tag = RESERVED_TAG.exec(text);
    if (tag) {
      problems.push({
        file,
        line,
        code: 'reserved_block',
        message: `uses the reserved tag ${tag[0]}; the runtime writes that block itself (R-G3)`,
      });
    }
    const heading = headingText(text);
    if (heading !== undefined && RESERVED_HEADINGS.some((re) => re.test(heading.trim()))) {
      problems.push({
        file,
        line,
        code: 'reserved_block',
        message: `uses the reserved heading "${text.trim()}"; the runtime writes that heading itself (R-G3)`,
      });
    }
  });
  return problems;
}
