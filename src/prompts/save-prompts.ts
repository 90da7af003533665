import type { PromptDeps } from './deps.ts';
import { prepareSettings } from './prepare-settings.ts';
import { getVersion } from './prompt-versions.ts';
import { baseRevisionOf, invalid, type SaveResult } from './save-result.ts';
import { emptySettings, type PromptSettings, type SaveMeta } from './settings.ts';
import { asRecord } from './settings-size.ts';
import { commitVersion, headRevision } from './version-store.ts';

/**
 * `PUT /api/prompts` and the save tool: validate `{ baseRevision, team, overrides, skills }`
 * against the version it was drafted on, then commit it only if that is still the head (R-F2).
 * A conflict writes nothing; the caller keeps its draft.
 */
export async function savePrompts(deps: PromptDeps, body: unknown, meta: SaveMeta): Promise<SaveResult> {
  const { baseRevision, ...settings } = asRecord(body);
  const base = baseRevisionOf({ baseRevision });
  const saved = typeof base === 'number' ? await getVersion(deps, base) : null;
  if (typeof base === 'number' && saved === null) return conflict(deps);
  const prepared = prepareSettings(settings, {
    builtins: deps.builtins,
    sizeCap: deps.sizeCap,
    saved: saved?.config ?? emptySettings(),
  });
  const problems = [...(prepared.ok ? [] : prepared.errors), ...(typeof base === 'object' ? [base] : [])];
  if (!prepared.ok || typeof base === 'object') return invalid(problems);
  return commit(deps, base, prepared.settings, meta, prepared.dropped);
}

/**
 * `POST /api/prompts/restore`: `{ baseRevision, revision }` or `{ baseRevision, defaults: true }`.
 * Restoring never rewrites history; it commits the old configuration as a new version (R-F1).
 */
export async function restore(deps: PromptDeps, body: unknown, meta: SaveMeta): Promise<SaveResult> {
  const raw = asRecord(body);
  const base = baseRevisionOf(raw);
  if (typeof base === 'object') return invalid([base]);
  if (raw.defaults === true) return commit(deps, base, emptySettings(), meta, [], 'defaults');
  const rev = raw.revision;
  if (typeof rev !== 'number' || !Number.isInteger(rev) || rev < 0) {
    return invalid([
      { key: 'revision', code: 'invalid_value', message: 'name a revision or defaults: true' },
    ]);
  }
  const old = await getVersion(deps, rev);
  if (!old) return { ok: false, error: 'not_found', revision: rev };
  // The old configuration is re-validated against this release: sections it no longer has are
  // dropped, and overrides now identical to their default disappear (R-E5, R-F4).
  const prepared = prepareSettings(old.config, {
    builtins: deps.builtins,
    sizeCap: deps.sizeCap,
    saved: old.config,
  });
  if (!prepared.ok) return invalid(prepared.errors);
  return commit(deps, base, prepared.settings, meta, prepared.dropped, rev);
}

async function commit(
  deps: PromptDeps,
  baseRevision: number,
  config: PromptSettings,
  meta: SaveMeta,
  dropped: string[],
  restoredFrom?: number | 'defaults',
): Promise<SaveResult> {
  const input = {
    baseRevision,
    config,
    meta,
    ...(restoredFrom === undefined ? {} : { restoredFrom }),
    ...(deps.now ? { now: deps.now } : {}),
  };
  const result = await commitVersion(deps, 'prompts', input);
  return result.ok
    ? { ok: true, revision: result.revision, dropped }
    : { ok: false, error: 'conflict', currentRevision: result.currentRevision };
}

async function conflict(deps: PromptDeps): Promise<SaveResult> {
  const currentRevision = await headRevision(deps, 'prompts');
  return { ok: false, error: 'conflict', currentRevision };
}
