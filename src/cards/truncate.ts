/**
 * Cuts `text` to at most `cap` characters at a clean boundary: the last paragraph break, else line
 * break, else sentence end, else word gap in the final fifth of the allowance; never inside a
 * surrogate pair. Returns the text unchanged when it fits.
 */
export function truncateClean(text: string, cap: number): { text: string; cut: boolean } {
  if (text.length <= cap) return { text, cut: false };
  let head = text.slice(0, cap);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  const floor = Math.floor(cap * 0.8);
  for (const boundary of [/\n\s*\n/g, /\n/g, /[.!?。！？]\s/g, /\s/g]) {
    let at = -1;
    for (const m of head.matchAll(boundary)) at = m.index + m[0].length;
    if (at >= floor) return { text: head.slice(0, at).trimEnd(), cut: true };
  }
  return { text: head, cut: true };
}
