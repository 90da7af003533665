/**
 * The size counted against the deployment's cap (R-F4): every character a team wrote — team
 * paragraphs, override texts, skill names, descriptions and bodies. Recorded bases are the
 * product's own text and are not counted. Reads any JSON leniently (a `skills` object or a
 * `team` string counts nothing here; the schema reports them as 422), so a malformed save is
 * never a 500 (issue 14).
 */
export function settingsSize(input: unknown): number {
  const raw = asRecord(input);
  let size = 0;
  const add = (v: unknown) => {
    if (typeof v === 'string') size += v.length;
  };
  for (const v of Object.values(asRecord(raw.team))) add(v);
  for (const o of Object.values(asRecord(raw.overrides))) add(asRecord(o).text);
  for (const s of Array.isArray(raw.skills) ? raw.skills : []) {
    const skill = asRecord(s);
    add(skill.name);
    add(skill.description);
    add(skill.text);
  }
  return size;
}

export const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
