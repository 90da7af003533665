import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  type Builtins,
  loadBuiltins,
  type PolicySettings,
  prepareSettings,
} from '../../../src/prompts/index.ts';
import { emptySettings, type PromptSettings } from '../../../src/prompts/settings.ts';

export const fixturePath = (name: string): string =>
  fileURLToPath(new URL(`../../fixtures/prompts/${name}`, import.meta.url));

/** The every-override fixture: settings (validated like a save), policy, environments, AGENTS.md. */
export interface Fixture {
  settings: PromptSettings;
  policy: { revision: number; config: PolicySettings };
  mainEnvironment: Record<string, string>;
  executorEnvironment: Record<string, string>;
  agentsMd: string;
  inferredRuleIds: string[];
}

export async function everyOverride(builtins: Builtins): Promise<Fixture> {
  const raw = JSON.parse(await readFile(fixturePath('every-override.json'), 'utf8')) as Omit<
    Fixture,
    'settings'
  > & {
    settings: unknown;
  };
  const prepared = prepareSettings(raw.settings, { builtins, sizeCap: 200_000, saved: emptySettings() });
  if (!prepared.ok) throw new Error(`fixture is invalid: ${JSON.stringify(prepared.errors)}`);
  return { ...raw, settings: prepared.settings };
}

export const builtins = (): Promise<Builtins> => loadBuiltins();
