/** One catalog file as key → text; `problems` names what is wrong with the file. */
export interface ParsedCatalog {
  texts: Map<string, string>;
  problems: string[];
}

const KEY = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)*$/;
const PLACEHOLDER = /\{([a-zA-Z][a-zA-Z0-9]*)\}/g;

/**
 * Reads a host-text catalog (`prompts/host/<lang>.md`): each `## key` heading opens a text that
 * runs to the next heading, trimmed; what comes before the first heading is the file's preamble.
 * One pass over the lines, so a long file costs linear time.
 */
export function parseCatalog(markdown: string): ParsedCatalog {
  const texts = new Map<string, string>();
  const problems: string[] = [];
  let key: string | undefined;
  let body: string[] = [];
  const close = () => {
    if (key === undefined) return;
    const text = body.join('\n').trim();
    if (!text) problems.push(`${key}: empty text`);
    else if (texts.has(key)) problems.push(`${key}: defined twice`);
    else texts.set(key, text);
  };
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) {
      close();
      key = line.slice(3).trim();
      body = [];
      if (!KEY.test(key)) problems.push(`${key}: not a key (lowercase words joined by . and -)`);
    } else if (key !== undefined) body.push(line);
  }
  close();
  return { texts, problems };
}

/** The placeholder names a text uses, sorted and each once. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string))].sort();
}

/** Fills `{name}` placeholders; a placeholder without a value is a bug in the caller and throws. */
export function fillPlaceholders(text: string, vars: Readonly<Record<string, string | number>>): string {
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`host text: no value for {${name}}`);
    return String(v);
  });
}
