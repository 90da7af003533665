import { describe, expect, it } from 'vitest';
import { PROFILES, TOPOLOGIES } from '../../../src/artifacts/artifact.ts';
import type { TurnArtifacts } from '../../../src/artifacts/turn-snapshot.ts';
import { executorTools } from '../../../src/executor/executor-tools.ts';
import type { TurnScope } from '../../../src/executor/turn-scope.ts';
import type { MainBatch } from '../../../src/router/main/batch.ts';
import { mainTools } from '../../../src/router/main/main-turn.ts';
import type { Runtime } from '../../../src/runtime.ts';
import { toFunctionTools } from '../../../src/session/tool-schema.ts';

/**
 * R-H1: every tool a session offers is valid for every provider. Names: OpenAI's
 * `^[a-zA-Z0-9_-]{1,64}$` (Anthropic allows the same characters up to 128, so this is both),
 * unique in a request (Anthropic: "Tool names must be unique"), at most 128 tools (OpenAI).
 * Schemas: an object at the top (both), no oneOf/anyOf/allOf there (Anthropic refuses them),
 * and only the keywords of the JSON Schema core that both document, so no `$ref`, `$defs`,
 * `propertyNames`, `patternProperties`, `if`/`then`, `not`.
 */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'description',
  'title',
  'default',
  'additionalProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'anyOf',
  'nullable',
]);

/** Keywords outside the subset, with where they sit; `properties` maps names, not keywords. */
function unsupported(schema: unknown, path = '$'): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => unsupported(s, `${path}[${i}]`));
  if (!schema || typeof schema !== 'object') return [];
  return Object.entries(schema).flatMap(([k, v]) => {
    if (!KEYWORDS.has(k)) return [`${path}.${k}`];
    if (k === 'properties')
      return Object.entries(v as object).flatMap(([name, s]) => unsupported(s, `${path}.properties.${name}`));
    if (k === 'enum' || k === 'const' || k === 'default' || k === 'required') return [];
    return typeof v === 'object' ? unsupported(v, `${path}.${k}`) : [];
  });
}

// Building the tool lists reads nothing from the runtime; their `run` is never called here.
const rt = {} as Runtime;
const batch: MainBatch = {
  turnId: 't',
  cards: new Map(),
  reasons: new Map(),
  decided: new Map(),
  notices: new Map(),
};
const scope = (profile: string, topology: string) =>
  ({
    rt,
    ticket: {},
    turnId: 't',
    batch: new Map(),
    artifacts: { role: { profile }, topology } as unknown as TurnArtifacts,
  }) as unknown as TurnScope;

const offered: [string, ReturnType<typeof toFunctionTools>][] = [
  ['main', toFunctionTools(mainTools(rt, batch))],
  ...PROFILES.flatMap((p) =>
    TOPOLOGIES.map((t): [string, ReturnType<typeof toFunctionTools>] => [
      `executor ${p}/${t}`,
      toFunctionTools(executorTools(scope(p, t))),
    ]),
  ),
];

describe('tool schemas valid for every provider (issue 12, R-H1)', () => {
  it('covers the main session and every executor profile and topology', () => {
    expect(offered.map(([who]) => who)).toHaveLength(1 + PROFILES.length * TOPOLOGIES.length);
    expect(offered.every(([, tools]) => tools.length > 0)).toBe(true);
  });

  for (const [who, tools] of offered) {
    it(`R-H1: ${who}: names, count and JSON Schema are in the subset OpenAI and Anthropic both accept`, () => {
      const names = tools.map((t) => t.function.name);
      expect(names.filter((n) => !NAME.test(n))).toEqual([]);
      expect(new Set(names).size).toBe(names.length);
      expect(names.length).toBeLessThanOrEqual(128);
      for (const t of tools) {
        const schema = t.function.parameters as Record<string, unknown>;
        expect({ tool: t.function.name, type: schema.type }).toEqual({
          tool: t.function.name,
          type: 'object',
        });
        expect(['oneOf', 'anyOf', 'allOf'].filter((k) => k in schema)).toEqual([]);
        expect({ tool: t.function.name, unsupported: unsupported(schema) }).toEqual({
          tool: t.function.name,
          unsupported: [],
        });
      }
    });
  }
});
