/**
 * The one list of headings and tags the runtime writes itself (R-G3, issue 15): the assembled
 * prompt's generated block headings (`## Team: …`, `## Skill: …`, `## Role: …`, `## Workflow: …`,
 * the AGENTS.md block) and the code-owned contract headings of `prompts/` (the executor's role and
 * tool catalogue, the environment, the policy, the inferred-ticket note). Team settings (paragraphs,
 * skills) and artifact files (roles, skills, workflows) are both checked against it. Headings match
 * at any level, case-blind.
 */
export const RESERVED_HEADINGS: readonly RegExp[] = [
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
export const RESERVED_TAG = /<\/?(central-block|core-block|repository-instructions)\b[^>]*>/i;

/** An ATX heading's opening; the rest of the line is read by `headingText`. */
const HEADING_OPEN = /^ {0,3}#{1,6}[ \t]/;

/**
 * The text of an ATX heading line without its optional closing `#`s, or undefined for another
 * line. A scan, not a regex: `(.*?)(?:[ \t]+#+)?[ \t]*$` retried per character, so one long line
 * of a checkout's file took seconds (issue 14 "input costs nothing").
 */
export function headingText(line: string): string | undefined {
  const open = HEADING_OPEN.exec(line);
  if (!open) return undefined;
  const text = line.slice(open[0].length).trim();
  let end = text.length;
  while (end > 0 && text.charAt(end - 1) === '#') end--;
  if (end === 0) return '';
  const before = text.charAt(end - 1);
  return end < text.length && (before === ' ' || before === '\t') ? text.slice(0, end).trim() : text;
}

/** What a line forges, if anything: a reserved tag or a reserved heading. */
export function reservedOnLine(line: string): { kind: 'tag' | 'heading'; found: string } | undefined {
  const tag = RESERVED_TAG.exec(line);
  if (tag) return { kind: 'tag', found: tag[0] };
  const heading = headingText(line);
  if (heading !== undefined && RESERVED_HEADINGS.some((re) => re.test(heading.trim())))
    return { kind: 'heading', found: line.trim() };
  return undefined;
}

/** Whether text (a team paragraph, a skill) uses any reserved heading or tag. */
export const usesReserved = (text: unknown): boolean =>
  typeof text === 'string' && text.split('\n').some((l) => reservedOnLine(l) !== undefined);
