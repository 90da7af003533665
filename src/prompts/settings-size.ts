/**
 * The size counted against the deployment's cap (R-F4): every character a team wrote — team
 * paragraphs, override texts, skill names, descriptions and bodies. Recorded bases are the
 * product's own text and are not counted.
 */
export function settingsSize(raw: {
  team?: Record<string, unknown>;
  overrides?: Record<string, unknown>;
  skills?: unknown[];
}): number {
  let size = 0;
  const add = (v: unknown) => {
    if (typeof v === 'string') size += v.length;
  };
  for (const v of Object.values(raw.team ?? {})) add(v);
  for (const o of Object.values(raw.overrides ?? {})) add(asRecord(o).text);
  for (const s of raw.skills ?? []) {
    const skill = asRecord(s);
    add(skill.name);
    add(skill.description);
    add(skill.text);
  }
  return size;
}

export const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
