/**
 * The one text normalisation: LF line endings and no surrounding blank space. Defaults, overrides
 * and bases are compared in this form, so an override that differs from its default only by a
 * trailing newline or CRLF counts as identical (R-F4) and a checkout with CRLF endings does not
 * mark every section "Default updated" (R-E6).
 */
export function normalizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

/** True when two texts are the same after normalisation. */
export function sameText(a: string, b: string): boolean {
  return normalizeText(a) === normalizeText(b);
}
