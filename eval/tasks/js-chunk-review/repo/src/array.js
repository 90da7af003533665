export function last(list) {
  return list[list.length - 1];
}
