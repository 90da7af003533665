/**
 * Joins Prometheus text expositions into one where each metric family appears once: its `# HELP`
 * and `# TYPE` lines first, then every sample of it from every text, in order (issue 17). BullMQ's
 * `exportPrometheusMetrics` writes both lines for each queue, and a scraper refuses a family
 * declared twice. Reads lines with `indexOf`: linear on any text.
 */
export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, { help?: string; type?: string; samples: string[] }>();
  const family = (name: string) => {
    const known = families.get(name);
    if (known) return known;
    const f: { help?: string; type?: string; samples: string[] } = { samples: [] };
    families.set(name, f);
    return f;
  };
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) {
        const rest = line.slice(7);
        const f = family(rest.slice(0, rest.indexOf(' ') < 0 ? rest.length : rest.indexOf(' ')));
        if (line.startsWith('# HELP ')) f.help ??= line;
        else f.type ??= line;
        continue;
      }
      if (line.startsWith('#')) continue;
      const cut = [line.indexOf('{'), line.indexOf(' ')].filter((i) => i >= 0);
      family(line.slice(0, Math.min(...cut, line.length))).samples.push(line);
    }
  }
  const out: string[] = [];
  for (const f of families.values()) {
    if (f.help) out.push(f.help);
    if (f.type) out.push(f.type);
    out.push(...f.samples);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}
