/** A JSON value as the property tests mutate it. */
export type Json = unknown;

/** Every path into a JSON value, the root included. */
export function pathsOf(v: Json, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (v && typeof v === 'object')
    for (const [k, c] of Object.entries(v))
      out.push(...pathsOf(c, [...at, Array.isArray(v) ? Number(k) : k]));
  return out;
}

/** A copy of `v` with the value at `path` replaced (the root too, for an empty path). */
export function setAt(v: Json, path: (string | number)[], value: Json): Json {
  if (!path.length) return value;
  const copy = structuredClone(v) as Record<string | number, Json>;
  let o = copy;
  for (const p of path.slice(0, -1)) o = o[p] as Record<string | number, Json>;
  o[path.at(-1) as string | number] = value;
  return copy;
}
