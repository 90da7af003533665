import { existsSync, readFileSync } from 'node:fs';
import { loadConfig } from '../config.ts';
import { closeContext, createContext } from '../create-context.ts';
import { createLogger } from '../logger.ts';
import {
  getVersion,
  listVersions,
  loadBuiltins,
  type PromptDeps,
  type PromptSettings,
  prepareSettings,
  type SettingsProblem,
  savePrompts,
} from '../prompts/index.ts';
import { redisAnswersAt } from '../store/local-redis-server.ts';
import { storeHandle } from '../store/store-handle.ts';

/**
 * The two arms of `npm run eval -- --prompts <version|draft>` (issue 29): the prompt settings the
 * product has published (its newest version, or the defaults before any save) and a candidate — a
 * saved version (`r12` or `12`) or a draft in a file — read from the product's Redis (`REDIS_URL`,
 * `KEY_PREFIX`) through the prompts module, checked as a save would check them. Each task world
 * gets its arm's settings saved as its first version before its product starts (`installPrompts`).
 */

export interface Arm {
  label: 'published' | 'candidate';
  /** What it is: `defaults`, `r12`, or `draft <file>`. */
  name: string;
  /** The settings to install; null: the defaults (nothing to install). */
  settings: PromptSettings | null;
}

type Deps = Pick<PromptDeps, 'redis' | 'keys' | 'builtins' | 'sizeCap'>;

/** Both arms, published first, or why they cannot be had (exit status 2). */
export async function promptArms(spec: string, env: NodeJS.ProcessEnv): Promise<Arm[] | string> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({
      LOG_LEVEL: 'silent',
      ...(env.REDIS_URL ? { REDIS_URL: env.REDIS_URL } : {}),
      ...(env.KEY_PREFIX ? { KEY_PREFIX: env.KEY_PREFIX } : {}),
      ...(env.PROMPT_SIZE_CAP ? { PROMPT_SIZE_CAP: env.PROMPT_SIZE_CAP } : {}),
    });
  } catch (err) {
    return `--prompts: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (!(await redisAnswersAt(config.REDIS_URL)))
    return `--prompts reads the product's prompt versions, but no Redis answers at REDIS_URL (${config.REDIS_URL})`;
  const ctx = createContext(config, { log: createLogger('silent') });
  try {
    const deps: Deps = {
      ...storeHandle(ctx),
      builtins: await loadBuiltins(),
      sizeCap: config.PROMPT_SIZE_CAP,
    };
    const [head] = await listVersions(deps, 1);
    const published: Arm = {
      label: 'published',
      name: head ? `r${head.revision}` : 'defaults',
      settings: head?.config ?? null,
    };
    const candidate = await candidateArm(spec, deps, published, config.KEY_PREFIX);
    return typeof candidate === 'string' ? `--prompts ${spec}: ${candidate}` : [published, candidate];
  } finally {
    await closeContext(ctx);
  }
}

async function candidateArm(spec: string, deps: Deps, published: Arm, prefix: string): Promise<Arm | string> {
  const rev = /^r?(\d+)$/.exec(spec)?.[1];
  if (rev !== undefined) {
    const version = await getVersion(deps, Number(rev));
    if (!version)
      return `the product has no prompt version r${rev} (KEY_PREFIX ${prefix}; its newest is ${published.name})`;
    // As a restore would: re-checked against this release, sections it no longer has dropped.
    const checked = checkSettings(version.config, deps, version.config);
    return typeof checked === 'string' ? checked : { label: 'candidate', name: `r${rev}`, settings: checked };
  }
  if (spec === 'draft' || !existsSync(spec))
    return (
      'name a saved version (r12 or 12) or a draft in a file: the product keeps no draft of its own ' +
      '(the panel holds one in the browser until it is saved), so write it as PUT /api/prompts takes ' +
      'it — { "team": …, "overrides": …, "skills": … } — and pass that file'
    );
  let body: unknown;
  try {
    body = JSON.parse(readFileSync(spec, 'utf8'));
  } catch (err) {
    return `the draft is not JSON (${err instanceof Error ? err.message : String(err)})`;
  }
  // The draft's base revision is the save's business, not a setting.
  const draft =
    body && typeof body === 'object' && !Array.isArray(body)
      ? Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'baseRevision'))
      : body;
  const checked = checkSettings(draft, deps, published.settings ?? { team: {}, overrides: {}, skills: [] });
  return typeof checked === 'string'
    ? checked
    : { label: 'candidate', name: `draft ${spec}`, settings: checked };
}

/** The settings as a save would store them, or every problem a save would report. */
function checkSettings(input: unknown, deps: Deps, saved: PromptSettings): PromptSettings | string {
  const prepared = prepareSettings(input, { builtins: deps.builtins, sizeCap: deps.sizeCap, saved });
  return prepared.ok ? prepared.settings : `a save would refuse it: ${problems(prepared.errors)}`;
}

const problems = (errors: SettingsProblem[]) => errors.map((e) => `${e.key}: ${e.message}`).join('; ');

/**
 * Saves an arm's settings as the first version of a task world's own prompts (its key prefix),
 * before its workers start, through the prompts module as the panel would save them.
 */
export async function installPrompts(deps: PromptDeps, settings: PromptSettings): Promise<void> {
  const saved = await savePrompts(deps, { baseRevision: 0, ...settings }, { source: 'api', who: 'eval' });
  if (!saved.ok)
    throw new Error(
      `the arm's prompt settings were refused: ${saved.error === 'invalid' ? problems(saved.errors) : saved.error}`,
    );
}
