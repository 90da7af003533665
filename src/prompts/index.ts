/**
 * Prompt composition and versioned settings (SPEC E and F). The public surface; everything else
 * in this directory is an implementation detail.
 *
 * Start-up: `loadBuiltins()` once, then hand `{ redis, keys, builtins, sizeCap }` (a `PromptDeps`)
 * to the functions below. Per model request: `buildSystemPrompt(deps, reader, request)` with one
 * long-lived `createPromptReader(deps)` per process.
 */

/** Pure R-E7 assembly of the main session's and an executor's system prompt. */
export {
  type AssemblyInput,
  assembleExecutor,
  assembleMain,
  type ExecutorAssemblyInput,
  effectiveSections,
} from './assemble.ts';
export type { PromptDeps } from './deps.ts';
/** Reads `prompts/` and `skills/` (directories injectable for tests). */
export { type BuiltinDirs, type Builtins, defaultBuiltinDirs, loadBuiltins } from './load-builtins.ts';
/** Policy settings (R-B8, R-E9): `GET`/`PUT /api/policy`. */
export { defaultPolicy, type PolicyRule, type PolicySettings } from './policy-settings.ts';
export { getPolicy, savePolicy } from './policy-store.ts';
/** Validation and the R-E5/R-F4 save rules, without Redis. */
export { type PrepareResult, prepareSettings } from './prepare-settings.ts';
/** `GET /api/prompts/versions[/:rev]`. */
export { getVersion, listVersions, type PromptVersion } from './prompt-versions.ts';
/** `GET /api/prompts`. */
export { getPromptsView, type PromptsView, type SectionView, viewOf } from './prompts-view.ts';
/** Per-request reading with an in-process cache (R-F3). */
export { createPromptReader, type PromptReader, type PromptSnapshot } from './reader.ts';
export { renderPolicy } from './render-policy.ts';
/** `PUT /api/prompts`, `POST /api/prompts/restore`. */
export { restore, savePrompts } from './save-prompts.ts';
export type { SaveResult } from './save-result.ts';
export { SECTION_KEYS, type SectionKey, TEAM_HEADINGS, TEMPLATE_PLACEHOLDERS } from './section-keys.ts';
/** Which revisions a session used, and reading one back (R-F3). */
export { recordRevision, sessionRevisions } from './session-revisions.ts';
export type { PromptSettings, SaveMeta, SaveSource, SettingsProblem, StoredOverride } from './settings.ts';
/** The system prompt for one model request. */
export { type BuiltSystemPrompt, buildSystemPrompt, type SystemPromptRequest } from './system-prompt.ts';
/** `orchestrator_prompts_save` and `orchestrator_read prompts`. */
export { type PromptsForTool, promptsSaveTool, readPromptsForTool } from './tool-helpers.ts';
/** "Default updated" detection with a line diff (R-E6). */
export { lineDiff, type UpgradeStatus, upgradeStatus } from './upgrade.ts';
export type { VersionRecord } from './version-store.ts';
