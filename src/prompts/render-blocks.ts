import type { Skill } from './parse-skill.ts';
import { TEAM_FIELDS, TEAM_HEADINGS } from './section-keys.ts';
import type { PromptSettings } from './settings.ts';
import { normalizeText } from './text.ts';

/**
 * The team paragraphs under their fixed headings (R-E7 step 2). Built-in text refers to these
 * headings (R-E2); a paragraph the team left empty is left out rather than shown empty.
 */
export function teamBlock(team: PromptSettings['team']): string {
  return TEAM_FIELDS.flatMap((field) => {
    const text = normalizeText(team[field] ?? '');
    return text ? [`${TEAM_HEADINGS[field]}\n\n${text}`] : [];
  }).join('\n\n');
}

/** Skills as `## Skill: <name>` blocks: built-in first, then the team's (R-E10 ranks them apart). */
export function skillsBlock(skills: readonly Skill[]): string {
  return skills
    .map((s) => {
      const description = s.description ? `${normalizeText(s.description)}\n\n` : '';
      return `## Skill: ${s.name}\n\n${description}${normalizeText(s.text)}`;
    })
    .join('\n\n');
}

/**
 * The repository's AGENTS.md, fenced so the model can tell it apart from our own instructions
 * (R-C9). It is the repository's text: it guides the work but never grants anything (R-E10).
 */
export function agentsBlock(text: string): string {
  const body = normalizeText(text);
  if (!body) return '';
  return `## Repository instructions (AGENTS.md)\n\n<repository-instructions>\n${body}\n</repository-instructions>`;
}

/** A crew's role under `## Role: <name>` (R-E7 step 1); absent or empty, nothing. */
export function roleBlock(role?: { name: string; body: string }): string {
  const body = normalizeText(role?.body ?? '');
  return role && body ? `## Role: ${role.name}\n\n${body}` : '';
}

/** A crew's workflow under `## Workflow: <name>` with its stages in order (R-E7 step 4). */
export function workflowBlock(flow?: { name: string; stages: readonly string[]; body: string }): string {
  if (!flow) return '';
  const body = normalizeText(flow.body);
  return `## Workflow: ${flow.name}\n\nStages: ${flow.stages.join(' → ')}${body ? `\n\n${body}` : ''}`;
}
