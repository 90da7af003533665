import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../../prompts/context/', import.meta.url));

/**
 * Built-in texts of compaction (STYLE: prompt text is Markdown in `prompts/`): the instructions of
 * the one summarising call, and the template of the "progress so far" message that replaces the
 * summarised steps. Not team-editable sections: they are host mechanics, like tool descriptions.
 */
export const contextPrompts = {
  summarise: (await readFile(`${dir}summarise.md`, 'utf8')).trim(),
  progress: (await readFile(`${dir}progress.md`, 'utf8')).trim(),
};

/** The message that stands for the summarised steps. */
export function progressText(summary: string): string {
  return contextPrompts.progress.replace('{summary}', () => summary);
}
