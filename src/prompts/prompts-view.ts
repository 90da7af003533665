import type { PromptDeps } from './deps.ts';
import {
  isSectionKey,
  SECTION_KEYS,
  type SectionKey,
  TEAM_HEADINGS,
  TEMPLATE_PLACEHOLDERS,
} from './section-keys.ts';
import { emptySettings, type PromptSettings, type StoredOverride, StoredPromptSettings } from './settings.ts';
import { upgradeStatus } from './upgrade.ts';
import { headRecord } from './version-store.ts';

export interface SectionView {
  key: SectionKey;
  /** This release's built-in text. */
  default: string;
  override: StoredOverride | null;
  defaultChanged: boolean;
  diff: string | null;
  /** Placeholders an override of this template must keep (R-E3); empty for plain sections. */
  placeholders: readonly string[];
}

/** What `GET /api/prompts` answers. */
export interface PromptsView {
  revision: number;
  sections: SectionView[];
  team: PromptSettings['team'];
  /** The headings the team paragraphs appear under; built-in text refers to them (R-E2). */
  teamHeadings: typeof TEAM_HEADINGS;
  skills: { builtin: PromptSettings['skills']; team: PromptSettings['skills'] };
  sizeCap: number;
  /** Saved overrides for sections this release no longer has; the next save drops them (R-E5). */
  staleSections: string[];
}

/** Reads the head version and lays it beside the defaults, marking "Default updated" (R-E6). */
export async function getPromptsView(deps: PromptDeps): Promise<PromptsView> {
  const head = await headRecord(deps, 'prompts', StoredPromptSettings);
  return viewOf(deps, head?.revision ?? 0, head?.config ?? emptySettings());
}

/** The view of any configuration, pure: used for the head and for reading an old revision. */
export function viewOf(
  deps: Pick<PromptDeps, 'builtins' | 'sizeCap'>,
  revision: number,
  config: PromptSettings,
) {
  const sections = SECTION_KEYS.map((key): SectionView => {
    const override = config.overrides[key] ?? null;
    return {
      key,
      default: deps.builtins.sections[key],
      override,
      ...upgradeStatus(deps.builtins, key, override ?? undefined),
      placeholders: TEMPLATE_PLACEHOLDERS[key] ?? [],
    };
  });
  return {
    revision,
    sections,
    team: config.team,
    teamHeadings: TEAM_HEADINGS,
    skills: { builtin: [...deps.builtins.skills], team: config.skills },
    sizeCap: deps.sizeCap,
    staleSections: Object.keys(config.overrides).filter((k) => !isSectionKey(k)),
  } satisfies PromptsView;
}
