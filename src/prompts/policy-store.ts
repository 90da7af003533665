import type { PromptDeps } from './deps.ts';
import { defaultPolicy, PolicySettings, parsePolicy } from './policy-settings.ts';
import { baseRevisionOf, invalid, type SaveResult } from './save-result.ts';
import type { SaveMeta } from './settings.ts';
import { asRecord } from './settings-size.ts';
import { commitVersion, headRecord, headRevision } from './version-store.ts';

type Deps = Pick<PromptDeps, 'redis' | 'keys' | 'now'>;

/** What `GET /api/policy` answers: the current revision, mode and rules. */
export async function getPolicy(deps: Deps): Promise<PolicySettings & { revision: number }> {
  const record = await headRecord(deps, 'policy', PolicySettings);
  return record ? { revision: record.revision, ...record.config } : { revision: 0, ...defaultPolicy() };
}

/**
 * `PUT /api/policy` (R-E9, R-F2 likewise): versioned like the prompts. A stale `baseRevision` is a
 * conflict; without one the save goes on top of whatever is current.
 */
export async function savePolicy(deps: Deps, body: unknown, meta: SaveMeta): Promise<SaveResult> {
  const { baseRevision, ...rest } = asRecord(body);
  const parsed = parsePolicy(rest);
  const base = baseRevision === undefined ? undefined : baseRevisionOf({ baseRevision });
  const problems = [...(parsed.ok ? [] : parsed.errors), ...(typeof base === 'object' ? [base] : [])];
  if (!parsed.ok || typeof base === 'object') return invalid(problems);
  for (let attempt = 0; attempt < 5; attempt++) {
    const onTop = base ?? (await headRevision(deps, 'policy'));
    const input = {
      baseRevision: onTop,
      config: parsed.policy,
      meta,
      ...(deps.now ? { now: deps.now } : {}),
    };
    const result = await commitVersion(deps, 'policy', input);
    if (result.ok) return { ok: true, revision: result.revision, dropped: [] };
    if (base !== undefined) return { ok: false, error: 'conflict', currentRevision: result.currentRevision };
  }
  return { ok: false, error: 'conflict', currentRevision: await headRevision(deps, 'policy') };
}
