/**
 * Which changed files make a change a UI change, which then needs a "before" and an "after"
 * screenshot (R-C6, issue 15). Globs from `UI_FILE_GLOBS`, matched case-insensitively against the
 * path from the repository's root: a glob without `/` matches the file's name in any folder
 * (`*.css`), one with `/` the whole path (`**` spans folders, so the default's components glob matches such a folder at any depth).
 */
export const DEFAULT_UI_FILE_GLOBS = [
  ...['css', 'scss', 'sass', 'less', 'styl', 'html', 'htm', 'vue', 'svelte', 'tsx', 'jsx'].map(
    (e) => `*.${e}`,
  ),
  ...[
    'hbs',
    'handlebars',
    'ejs',
    'njk',
    'pug',
    'erb',
    'jinja',
    'jinja2',
    'j2',
    'twig',
    'mustache',
    'liquid',
  ].map((e) => `*.${e}`),
  ...['template', 'templates', 'views', 'layouts', 'components'].map((d) => `**/${d}/**`),
].join(',');

/** One glob as a regular expression; linear (no nested quantifiers), so long paths cost little. */
function globRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:[^]*/)?' : '[^]*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}

/** A test for "is this path a UI file", from a comma-separated list of globs. */
export function uiFileMatcher(globs: string): (path: string) => boolean {
  const tests = globs
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean)
    .map((g) => {
      const re = globRegex(g);
      return g.includes('/')
        ? (p: string) => re.test(p)
        : (p: string) => re.test(p.slice(p.lastIndexOf('/') + 1));
    });
  return (path) => tests.some((t) => t(path));
}
