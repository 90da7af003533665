/**
 * Issue 31: mentions that notify a crowd are never sent on the model's word. In outgoing text,
 * Feishu's @all (`<at user_id="all">…</at>`, `<at id=all>` in cards) and GitHub team mentions
 * (`@org/team`) become inline code — shown, but pinging no one — unless the host itself put that
 * exact mention in `allowed` (today it never does). A model that read one in a card and repeats
 * it, or was told to, reaches nobody. Issue 45: so does a Feishu mention of one person
 * (`<at user_id="ou_…">Ada</at>` becomes `` `@Ada` ``) — the bot pings no one a model or a card
 * named, unless `allowed` holds that id. Each pattern is linear over any text (issue 14): a match
 * starts at `<` or `@` and its classes cannot run past the next `<` or past a bounded length.
 */
export function neutralizeMentions(text: string, allowed: readonly string[] = []): string {
  const keep = new Set(allowed.map((m) => m.toLowerCase()));
  const at = (whole: string, attrs: string, name = '') =>
    keptAt(attrs, keep) ? whole : shownAt(attrs, name);
  return text
    .replace(AT_ELEMENT, (whole, attrs: string, name: string) => at(whole, attrs, name))
    .replace(AT_OPEN, (whole, attrs: string) => at(whole, attrs))
    .replace(TEAM, (whole, before: string, team: string) =>
      keep.has(team.toLowerCase()) ? whole : `${before}\`${team}\``,
    );
}

/** A whole `<at …>name</at>` element; the name cannot hold `<`, so a match ends at the first one. */
const AT_ELEMENT = /<at\b([^<>]*)>([^<]*)<\/at>/gi;
/** An opening tag left alone (no closing one). */
const AT_OPEN = /<at\b([^<>]*)>/gi;
/** `user_id="all"`, `id=ou_1`, `open_id='all'` — also inside JSON, where quotes are escaped. */
const ID_ATTR = /(?:^|[\s\\"'])(?:user_id|open_id|union_id|id)\s*=\s*\\?["']?([\w-]{1,100})/i;
const idOf = (attrs: string) => ID_ATTR.exec(attrs)?.[1]?.toLowerCase();

/** Kept only when the host allowed it: `@all` for everyone, the person's id for one person. */
function keptAt(attrs: string, keep: ReadonlySet<string>): boolean {
  const id = idOf(attrs);
  return id === 'all' ? keep.has('@all') : id !== undefined && keep.has(id);
}

/**
 * What a person reads instead: `@all`, or the shown name (`@someone` without one) as code. The
 * name is never cut: inside a card's JSON a cut could split an escape.
 */
function shownAt(attrs: string, name: string): string {
  if (idOf(attrs) === 'all') return '`@all`';
  const shown = name.replace(/[`\s]+/g, ' ').trim();
  return `\`@${shown || 'someone'}\``;
}

/**
 * `@org/team` where GitHub would link it: not inside a word, an e-mail address, a path or a code
 * span's backticks. Organization logins are at most 39 characters, team slugs are bounded here.
 */
const TEAM = /(^|[^\w@/.`-])(@[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9](?:[\w-]|\.(?=\w)){0,99})(?![\w/-])/g;
