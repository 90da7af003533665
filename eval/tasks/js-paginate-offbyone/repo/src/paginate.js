export function paginate(items, page, perPage) {
  const start = (page - 1) * perPage - (page > 1 ? 1 : 0);
  return items.slice(start, start + perPage);
}
