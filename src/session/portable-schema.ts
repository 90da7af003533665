/**
 * A tool's JSON Schema in the subset every provider accepts (R-H1: no field a provider rejects).
 * zod writes `$schema` at the top and `propertyNames: { type: 'string' }` for records; both say
 * nothing a JSON object's keys do not already say, and stricter validators (OpenAI strict mode,
 * Gemini, grammar-based local servers) refuse them. `test/unit/session/tool-schemas.test.ts`
 * holds every offered tool to the subset.
 */
export function portableSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dropped, ...rest } = schema;
  return strip(rest) as Record<string, unknown>;
}

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'propertyNames' && isPlainStringType(v)) continue;
    // A discriminated union's branches exclude each other by their `const` tag, so `anyOf` says
    // the same as zod's `oneOf`, in the keyword every provider accepts.
    out[k === 'oneOf' ? 'anyOf' : k] = strip(v);
  }
  return out;
}

const isPlainStringType = (v: unknown): boolean =>
  !!v && typeof v === 'object' && Object.keys(v).length === 1 && (v as { type?: unknown }).type === 'string';
