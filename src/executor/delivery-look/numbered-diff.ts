/** The most diff lines a look shows, and the most characters of one line. */
const MAX_LINES = 300;
const LINE_CHARS = 200;

interface FileCount {
  path: string;
  added: string;
  removed: string;
}

/**
 * A unified diff (`git diff -U3`) for the model to read before delivery (issue 48 item 3): each
 * file's name with its counts, then its hunks, every line numbered (the new file's number; the
 * old one's for a removed line), at most `MAX_LINES` lines; the files not shown, or shown only in
 * part, are named after it with their counts.
 */
export function numberedDiff(diff: string, numstat: string): string {
  const counts = new Map(parseNumstat(numstat).map((c) => [c.path, c]));
  const out: string[] = [];
  const cut = new Set<string>();
  let file = '';
  let oldLine = 0;
  let newLine = 0;
  // A file's header runs from `diff --git` to its first hunk; only there are `---`/`+++` names:
  // inside a hunk they are a removed `-- …` or an added `++ …` line.
  let inHeader = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      file = '';
      inHeader = true;
      continue;
    }
    if (inHeader && (line.startsWith('+++ ') || line.startsWith('--- '))) {
      const named = line.slice(4);
      if (named !== '/dev/null') file = named.slice(2);
      if (line.startsWith('+++ ') && file) {
        if (out.length >= MAX_LINES) cut.add(file);
        else out.push(`${file} (${countOf(counts.get(file))})`);
      }
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      inHeader = false;
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      if (out.length < MAX_LINES) out.push('   …');
      continue;
    }
    const sign = line[0];
    if (!file || (sign !== ' ' && sign !== '+' && sign !== '-')) continue;
    const n = sign === '-' ? oldLine++ : newLine++;
    if (sign === ' ') oldLine++;
    if (out.length >= MAX_LINES) {
      cut.add(file);
      continue;
    }
    const text = line.slice(1);
    const shown = text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)} [… cut]` : text;
    out.push(`${String(n).padStart(6)} ${sign} ${shown}`);
  }
  const named = diffNames(diff);
  const rest = [...counts.values()].filter((c) => cut.has(c.path) || !named.has(c.path));
  if (rest.length)
    out.push(`(not shown, or only in part: ${rest.map((c) => `${c.path} (${countOf(c)})`).join(', ')})`);
  return out.join('\n');
}

const countOf = (c: FileCount | undefined) => (c ? `+${c.added} −${c.removed}` : 'binary');

/** `git diff --numstat` lines: `added\tremoved\tpath` (`-` for a binary file). */
function parseNumstat(numstat: string): FileCount[] {
  return numstat
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((p) => p.length >= 3)
    .map(([added = '', removed = '', ...path]) => ({ path: path.join('\t'), added, removed }));
}

/** The files a diff's headers name (`+++ b/…`, or `--- a/…` for a deleted one); hunks' lines are no names. */
function diffNames(diff: string): Set<string> {
  const names = new Set<string>();
  let inHeader = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) inHeader = true;
    else if (line.startsWith('@@ ')) inHeader = false;
    else if (inHeader && (line.startsWith('+++ b/') || line.startsWith('--- a/')) && line.length > 6)
      names.add(line.slice(6));
  }
  return names;
}
