import { SECTION_KEYS, TEAM_FIELDS } from '../../prompts/section-keys.ts';
import type { PromptSettings } from '../../prompts/settings.ts';
import { asRecord } from '../../prompts/settings-size.ts';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * A panel draft read leniently, for the preview only: the preview shows what the draft would
 * assemble to while the person is still typing, so a half-finished skill or a missing
 * placeholder is previewed as written (and reported beside it) rather than refused.
 */
export function draftSettings(body: unknown): PromptSettings {
  const raw = asRecord(body);
  const team: PromptSettings['team'] = {};
  const rawTeam = asRecord(raw.team);
  for (const field of TEAM_FIELDS) {
    const text = str(rawTeam[field]);
    if (text?.trim()) team[field] = text;
  }
  const overrides: PromptSettings['overrides'] = {};
  const rawOverrides = asRecord(raw.overrides);
  for (const key of SECTION_KEYS) {
    const text = str(asRecord(rawOverrides[key]).text);
    if (text !== undefined) overrides[key] = { text, base: '' };
  }
  const skills = (Array.isArray(raw.skills) ? raw.skills : []).flatMap((s: unknown) => {
    const r = asRecord(s);
    const name = str(r.name);
    const text = str(r.text);
    const description = str(r.description);
    if (!name || !text?.trim()) return [];
    return [description ? { name, description, text } : { name, text }];
  });
  return { team, overrides, skills };
}
