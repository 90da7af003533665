import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSkillFile, type Skill } from './parse-skill.ts';
import { SECTION_FILES, SECTION_KEYS, type SectionKey, skillOfSection } from './section-keys.ts';
import { normalizeText } from './text.ts';

/** The built-in texts of this release: every section's default and the bundled skills. */
export interface Builtins {
  sections: Readonly<Record<SectionKey, string>>;
  skills: readonly Skill[];
}

export interface BuiltinDirs {
  /** Directory holding the section files (`prompts/`). */
  prompts: string;
  /** Directory holding `*.skill.md` files (`skills/`). */
  skills: string;
}

/** The repository's own `prompts/` and `skills/` directories. */
export function defaultBuiltinDirs(): BuiltinDirs {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  return { prompts: join(root, 'prompts'), skills: join(root, 'skills') };
}

/**
 * Reads every built-in section and skill. The directories are parameters so a test can simulate
 * an upgrade with an edited copy (R-E6). A missing section file throws: start-up must not run
 * with a hole in the prompt.
 */
export async function loadBuiltins(dirs: BuiltinDirs = defaultBuiltinDirs()): Promise<Builtins> {
  const skills = await loadSkills(dirs.skills);
  const entries = await Promise.all(
    SECTION_KEYS.map(async (key) => {
      const skill = skillOfSection(key);
      if (skill) {
        const found = skills.find((s) => s.name === skill);
        if (!found)
          throw new Error(`built-in skill ${skill} (section ${key}) is missing from ${dirs.skills}`);
        return [key, normalizeText(found.text)] as const;
      }
      const text = await readFile(join(dirs.prompts, SECTION_FILES[key]), 'utf8');
      return [key, normalizeText(text)] as const;
    }),
  );
  const sections = Object.fromEntries(entries) as Record<SectionKey, string>;
  return { sections, skills };
}

async function loadSkills(dir: string): Promise<Skill[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.skill.md')).sort();
  return Promise.all(files.map(async (f) => parseSkillFile(await readFile(join(dir, f), 'utf8'), f)));
}
