/** One block of an assembled prompt; `label` null for text no known block accounts for. */
export interface PreviewPart {
  label: string | null;
  text: string;
}

/**
 * Cuts `text` at the known blocks, found in order. The assembled text stays authoritative: the
 * parts, joined, are the whole prompt, and a block that cannot be found is simply not labelled.
 */
export function labelParts(text: string, blocks: readonly PreviewPart[]): PreviewPart[] {
  const parts: PreviewPart[] = [];
  let cursor = 0;
  const gap = (end: number) => {
    const between = text.slice(cursor, end);
    if (between.trim()) parts.push({ label: null, text: between.trim() });
  };
  for (const block of blocks) {
    const wanted = block.text.trim();
    if (!wanted) continue;
    const at = text.indexOf(wanted, cursor);
    if (at < 0) continue;
    gap(at);
    parts.push({ label: block.label, text: wanted });
    cursor = at + wanted.length;
  }
  gap(text.length);
  return parts;
}
