import type { StoreHandle } from '../store/store-handle.ts';
import type { Builtins } from './load-builtins.ts';

/**
 * What the prompt functions need: the store (passed on to the version records' owner,
 * `version-store.ts`), this release's built-in texts, the size cap.
 */
export interface PromptDeps extends StoreHandle {
  builtins: Builtins;
  /** PROMPT_SIZE_CAP: total characters of team-written settings (R-F4). */
  sizeCap: number;
  /** Injectable clock for version timestamps. */
  now?: () => number;
}
