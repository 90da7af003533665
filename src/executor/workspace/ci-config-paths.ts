/**
 * The repository paths whose change is a change to CI (issue 31): what runs on the bot's branches
 * and with which secrets. `.github/workflows/` is always one of them (GitHub runs what is there,
 * and refuses a push changing it without the `workflows` permission); `CI_CONFIG_PATHS` adds others
 * (`.gitlab-ci.yml`, `.circleci/`). An entry ending in `/` is a folder; any other names a file or a
 * folder. Matched without regard to case, from the repository's root.
 */
export const WORKFLOWS_DIR = '.github/workflows/';
export const DEFAULT_CI_CONFIG_PATHS = WORKFLOWS_DIR;

/** What is wrong with one entry of `CI_CONFIG_PATHS`, or undefined. */
export function ciPathProblem(entry: string): string | undefined {
  if (/^[/\\:]|\\|(^|\/)\.\.?(\/|$)|[*?[\]]/.test(entry))
    return `"${entry}" is not a path from the repository's root (no leading / or :, no . or .. parts, no \\ or glob characters)`;
  return undefined;
}

/** The entries of a comma-separated list, `.github/workflows/` always among them. */
export function ciConfigPaths(list: string): string[] {
  const entries = list
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const lower = entries.map((e) => e.toLowerCase());
  return lower.includes(WORKFLOWS_DIR) ? entries : [WORKFLOWS_DIR, ...entries];
}

/** The entry `file` falls under, if any. */
export function ciEntryOf(paths: readonly string[], file: string): string | undefined {
  const f = file.toLowerCase();
  return paths.find((entry) => {
    const e = entry.toLowerCase();
    return e.endsWith('/') ? f.startsWith(e) : f === e || f.startsWith(`${e}/`);
  });
}

/** Git pathspecs for the entries: literal, case-insensitive, each a file or a folder. */
export const ciPathspecs = (paths: readonly string[]): string[] => paths.map((p) => `:(icase,literal)${p}`);

/** Names from `git … --name-only -z` output: NUL-separated, commits apart by a newline. */
export const namesOfZ = (out: string): string[] => [
  ...new Set(
    out
      .split('\0')
      .map((n) => n.replace(/^\n+/, ''))
      .filter(Boolean),
  ),
];
