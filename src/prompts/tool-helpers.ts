import type { PromptDeps } from './deps.ts';
import { getVersion } from './prompt-versions.ts';
import { getPromptsView } from './prompts-view.ts';
import { savePrompts } from './save-prompts.ts';
import type { SaveResult } from './save-result.ts';
import { isSectionKey } from './section-keys.ts';
import { asRecord } from './settings-size.ts';

/**
 * `orchestrator_prompts_save` (R-E5), after the router's gate has checked that the candidate is
 * an allowed person's explicit request. Arguments `{ base_revision, team?, overrides?, skills? }`:
 * an omitted `team`, `overrides` or `skills` keeps the saved value; a given `overrides` is the whole
 * set, so a saved section missing from it is dropped; an override without `base` keeps its saved base.
 */
export async function promptsSaveTool(
  deps: PromptDeps,
  args: unknown,
  who: string | null,
): Promise<SaveResult> {
  const { base_revision: baseRevision, team, overrides, skills, ...rest } = asRecord(args);
  const base = typeof baseRevision === 'number' ? await getVersion(deps, baseRevision) : null;
  const saved = base?.config;
  const body = {
    ...rest,
    baseRevision,
    team: team ?? saved?.team ?? {},
    overrides: overrides ?? saved?.overrides ?? {},
    skills: skills ?? saved?.skills ?? [],
  };
  return savePrompts(deps, body, { source: 'tool', who });
}

/** What `orchestrator_read` answers for `prompts`: compact, with `default_changed` (R-E6). */
export interface PromptsForTool {
  revision: number;
  team: Record<string, string>;
  overrides: Record<string, { text: string; default_changed: boolean }>;
  skills: { name: string; description?: string }[];
  sections: string[];
  default_changed: string[];
  /** Present when one section was asked for: its default, override and diff. */
  section?: { key: string; default: string; override: string | null; diff: string | null };
}

/** `orchestrator_read prompts`, optionally with one section's full texts. */
export async function readPromptsForTool(deps: PromptDeps, section?: string): Promise<PromptsForTool> {
  const view = await getPromptsView(deps);
  const overridden = view.sections.filter((s) => s.override !== null);
  const out: PromptsForTool = {
    revision: view.revision,
    team: view.team as Record<string, string>,
    overrides: Object.fromEntries(
      overridden.map((s) => [s.key, { text: s.override?.text ?? '', default_changed: s.defaultChanged }]),
    ),
    skills: view.skills.team.map(({ name, description }) => (description ? { name, description } : { name })),
    sections: view.sections.map((s) => s.key),
    default_changed: overridden.filter((s) => s.defaultChanged).map((s) => s.key),
  };
  const one =
    section !== undefined && isSectionKey(section) ? view.sections.find((s) => s.key === section) : undefined;
  if (one)
    out.section = {
      key: one.key,
      default: one.default,
      override: one.override?.text ?? null,
      diff: one.diff,
    };
  return out;
}
