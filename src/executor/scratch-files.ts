/** Folders whose files are build output, caches or an editor's, never the change itself. */
const SCRATCH_DIRS = new Set([
  'node_modules',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.venv',
  'venv',
  '.tox',
  '.nyc_output',
  '.next',
  '.cache',
  '.idea',
]);
/** Whole names of files operating systems and tools leave behind. */
const SCRATCH_NAMES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini', 'nohup.out']);
/** Endings of logs, temporaries, merge and patch leftovers, editor swaps and compiled files. */
const SCRATCH_ENDINGS = [
  '.log',
  '.tmp',
  '.temp',
  '.orig',
  '.rej',
  '.bak',
  '.swp',
  '.swo',
  '.pyc',
  '.pyo',
  '.o',
  '~',
];
/** Names a model gives the files it tries things in: `debug.py`, `tmp_test.js`, `scratch2.md`, `repro.py` (issue 48). */
const SCRATCH_STEM = /^(scratch|tmp|temp|debug|untitled|repro|reproduce)([-_.\d]|$)/i;

/** Over this, a new file is more likely data or a build than source. */
export const LARGE_FILE_BYTES = 1024 * 1024;

/**
 * Why a file a commit adds looks like scratch or build output rather than part of the change
 * (issue 28), or undefined. `bytes` is its size when known. Only a warning: the file was committed.
 */
export function scratchReason(path: string, bytes?: number): string | undefined {
  const parts = path.split('/');
  const name = parts.at(-1) ?? path;
  const dir = parts.slice(0, -1).find((p) => SCRATCH_DIRS.has(p));
  if (dir) return `${dir}/`;
  if (SCRATCH_NAMES.has(name)) return name;
  const ending = SCRATCH_ENDINGS.find((e) => name.length > e.length && name.endsWith(e));
  if (ending) return ending === '~' ? '*~' : `*${ending}`;
  if (SCRATCH_STEM.test(name)) return 'a scratch name';
  if (bytes !== undefined && bytes > LARGE_FILE_BYTES) return 'over 1 MB';
  return undefined;
}
