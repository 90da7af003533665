/**
 * The argument shapes prose writes for tool calls: `reply({ to, text, purpose? })`,
 * `orchestrator_route({ decisions: [{ card, action, ticket? }] })`, `orchestrator_reload()`.
 * A key followed by `?` is written as optional; a key with a value (`purpose: "result"`) is an
 * example, its optionality not stated; `[{ … }]` describes the items of an array.
 */
export interface WrittenKey {
  name: string;
  optional: boolean;
  /** Written with an example value instead of a shape: says nothing about optionality. */
  valued: boolean;
  /** The shape of its object, or of its array's items. */
  inner?: WrittenKey[];
}

/** Every backticked call in `text`: the tool's name and the keys written, or an error for text that does not parse. */
export function writtenCalls(text: string): { name: string; keys: WrittenKey[] | string; raw: string }[] {
  const out: { name: string; keys: WrittenKey[] | string; raw: string }[] = [];
  for (const m of text.matchAll(/`([a-z]+(?:_[a-z]+)*)\(([^`]*)\)`/g)) {
    const [raw, name, args] = m as unknown as [string, string, string];
    const body = args.trim();
    if (!body) {
      out.push({ name, keys: [], raw });
      continue;
    }
    try {
      const p = { s: body, i: 0 };
      const keys = parseObject(p);
      skip(p);
      if (p.i !== p.s.length) throw new Error(`unexpected ${JSON.stringify(p.s.slice(p.i))}`);
      out.push({ name, keys, raw });
    } catch (err) {
      out.push({ name, keys: String((err as Error).message), raw });
    }
  }
  return out;
}

interface Cursor {
  s: string;
  i: number;
}

const skip = (p: Cursor) => {
  while (p.i < p.s.length && /\s/.test(p.s[p.i] as string)) p.i++;
};

function expect(p: Cursor, c: string): void {
  skip(p);
  if (p.s[p.i] !== c) throw new Error(`expected ${c} at ${JSON.stringify(p.s.slice(p.i))}`);
  p.i++;
}

function parseObject(p: Cursor): WrittenKey[] {
  expect(p, '{');
  const keys: WrittenKey[] = [];
  for (;;) {
    skip(p);
    if (p.s[p.i] === '}') {
      p.i++;
      return keys;
    }
    const name = /^[a-z_]+/.exec(p.s.slice(p.i))?.[0];
    if (!name) throw new Error(`expected a key at ${JSON.stringify(p.s.slice(p.i))}`);
    p.i += name.length;
    const key: WrittenKey = { name, optional: false, valued: false };
    if (p.s[p.i] === '?') {
      key.optional = true;
      p.i++;
    }
    skip(p);
    if (p.s[p.i] === ':') {
      p.i++;
      skip(p);
      if (p.s[p.i] === '[') {
        p.i++;
        key.inner = parseObject(p);
        expect(p, ']');
      } else if (p.s[p.i] === '{') key.inner = parseObject(p);
      else {
        key.valued = true;
        const value = /^("[^"]*"|'[^']*'|[^,}]+)/.exec(p.s.slice(p.i))?.[0] ?? '';
        p.i += value.length;
      }
    }
    keys.push(key);
    skip(p);
    if (p.s[p.i] === ',') p.i++;
  }
}

/** A JSON Schema object as `z.toJSONSchema` writes it: its properties and required keys. */
interface ObjectSchema {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
  anyOf?: ObjectSchema[];
}

/**
 * A union of objects (`anyOf`, a discriminated union such as a routing decision's actions) as one
 * object: a key any variant takes, required when every variant requires it.
 */
function merged(schema: ObjectSchema): ObjectSchema {
  if (!schema.anyOf?.length) return schema;
  const variants = schema.anyOf.map(merged);
  const properties = Object.assign({}, ...variants.map((v) => v.properties ?? {}));
  const required = (variants[0]?.required ?? []).filter((k) =>
    variants.every((v) => v.required?.includes(k)),
  );
  return { properties, required };
}

/**
 * What the written keys get wrong against the schema: a key it lacks, a required key left out, a
 * key marked `?` that is required, or an optional key written without `?`.
 */
export function mismatches(keys: WrittenKey[], given: ObjectSchema, where: string): string[] {
  const schema = merged(given);
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const out: string[] = [];
  const written = new Set(keys.map((k) => k.name));
  for (const k of keys) {
    const prop = props[k.name];
    if (!prop) {
      out.push(
        `${where}: \`${k.name}\` is not an argument (it takes ${Object.keys(props).join(', ') || 'none'})`,
      );
      continue;
    }
    if (k.optional && required.has(k.name)) out.push(`${where}: \`${k.name}?\` is required, not optional`);
    if (!k.optional && !k.valued && !required.has(k.name))
      out.push(`${where}: \`${k.name}\` is optional: write \`${k.name}?\``);
    if (k.inner) {
      const inner = (prop.type === 'array' ? prop.items : prop) as ObjectSchema | undefined;
      out.push(...mismatches(k.inner, inner ?? {}, `${where}.${k.name}`));
    }
  }
  for (const r of required) if (!written.has(r)) out.push(`${where}: required \`${r}\` is missing`);
  return out;
}
