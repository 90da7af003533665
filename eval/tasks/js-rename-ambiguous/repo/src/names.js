export function fmt(first, last) {
  return `${last}, ${first}`;
}
