import { createTwoFilesPatch } from 'diff';
import type { Builtins } from './load-builtins.ts';
import type { SectionKey } from './section-keys.ts';
import type { StoredOverride } from './settings.ts';
import { sameText } from './text.ts';

/** How an override stands against this release's default (R-E6). */
export interface UpgradeStatus {
  /** True when the default the team wrote against is no longer the default. */
  defaultChanged: boolean;
  /** Unified line diff of the old default (the override's base) against the new; null when unchanged. */
  diff: string | null;
}

/**
 * Compares an override's recorded base with the current built-in text. The team text itself is
 * never touched: upgrades keep it, and the team decides to keep, adopt or edit (R-E6). A section
 * without an override simply follows the new default, so it is never "changed".
 */
export function upgradeStatus(builtins: Builtins, key: SectionKey, override?: StoredOverride): UpgradeStatus {
  const current = builtins.sections[key];
  if (!override || sameText(override.base, current)) return { defaultChanged: false, diff: null };
  return { defaultChanged: true, diff: lineDiff(key, override.base, current) };
}

/** A unified diff, old default → new default, without the `===` banner. */
export function lineDiff(key: string, oldText: string, newText: string): string {
  const patch = createTwoFilesPatch(
    `${key} (previous default)`,
    `${key} (current default)`,
    `${oldText}\n`,
    `${newText}\n`,
    undefined,
    undefined,
    { context: 3 },
  );
  return patch.replace(/^=+\n/, '');
}
