/**
 * Issue 31: mentions that notify a crowd are never sent on the model's word. In outgoing text,
 * Feishu's @all (`<at user_id="all">…</at>`, `<at id=all>` in cards) and GitHub team mentions
 * (`@org/team`) become inline code — shown, but pinging no one — unless the host itself put that
 * exact mention in `allowed` (today it never does). A model that read one in a card and repeats
 * it, or was told to, reaches nobody. Each pattern is linear over any text (issue 14): a match
 * starts at `<` or `@` and its classes cannot run past the next `<` or past a bounded length.
 */
export function neutralizeMentions(text: string, allowed: readonly string[] = []): string {
  const keep = new Set(allowed.map((m) => m.toLowerCase()));
  return text
    .replace(AT_ELEMENT, (whole, attrs: string) => (isAtAll(attrs) && !keep.has('@all') ? '`@all`' : whole))
    .replace(AT_OPEN, (whole, attrs: string) => (isAtAll(attrs) && !keep.has('@all') ? '`@all`' : whole))
    .replace(TEAM, (whole, before: string, team: string) =>
      keep.has(team.toLowerCase()) ? whole : `${before}\`${team}\``,
    );
}

/** A whole `<at …>name</at>` element; the name cannot hold `<`, so a match ends at the first one. */
const AT_ELEMENT = /<at\b([^<>]*)>[^<]*<\/at>/gi;
/** An opening tag left alone (no closing one). */
const AT_OPEN = /<at\b([^<>]*)>/gi;
/** `user_id="all"`, `id=all`, `open_id='all'` — also inside JSON, where quotes are escaped. */
const ALL_ATTR = /(?:^|[\s\\"'])(?:user_id|open_id|id)\s*=\s*\\?["']?all(?![\w-])/i;
const isAtAll = (attrs: string) => ALL_ATTR.test(attrs);

/**
 * `@org/team` where GitHub would link it: not inside a word, an e-mail address, a path or a code
 * span's backticks. Organization logins are at most 39 characters, team slugs are bounded here.
 */
const TEAM = /(^|[^\w@/.`-])(@[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9](?:[\w-]|\.(?=\w)){0,99})(?![\w/-])/g;
