/** Shortens `text` to at most `max` characters. */
export function truncate(text, max) {
  return text.slice(0, max);
}

/** `text` with its first letter in upper case. */
export function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
