import { parse as parseYaml } from 'yaml';
import { normalizeText } from './text.ts';

/** A skill (R-G1): knowledge in Markdown, named in lowercase kebab-case. Never tools (R-G4). */
export interface Skill {
  name: string;
  description?: string;
  text: string;
}

export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const FRONT_MATTER = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/;

/**
 * Parses a `*.skill.md` file: YAML front matter with `name` and `description`, then the body.
 * Throws with the file name when the front matter is missing or the name is not kebab-case,
 * because a broken built-in skill must stop start-up rather than vanish from every prompt.
 */
export function parseSkillFile(source: string, file: string): Skill {
  const match = FRONT_MATTER.exec(source.replace(/\r\n?/g, '\n'));
  if (!match) throw new Error(`${file}: a skill starts with --- front matter ---`);
  const meta: unknown = parseYaml(match[1] ?? '');
  const { name, description } = (meta ?? {}) as { name?: unknown; description?: unknown };
  if (typeof name !== 'string' || !SKILL_NAME.test(name)) {
    throw new Error(`${file}: front matter needs a lowercase kebab-case "name"`);
  }
  const skill: Skill = { name, text: normalizeText(match[2] ?? '') };
  if (typeof description === 'string') skill.description = description.trim();
  return skill;
}
