/**
 * Issue 28: which commands `record_verification` refuses — those whose exit code says nothing
 * about the change. A command is split (outside quotes) at `;`, newlines, `&&`, `||`, `|` and `&`
 * into simple commands; it is refused when every one is a no-op (`true`, `:`, `echo`, `exit 0`,
 * `test 1`, only comments…), or when a no-op decides its exit code after the check (`npm test ||
 * true`, `npm test; echo done`, `npm test | tail` without `pipefail`, `npm test &`). Reads the text
 * once, character by character: linear on any input.
 */

/** Commands that check nothing of the project (shell builtins, printing, listing). */
const NO_OP = new Set([
  'true',
  'false',
  ':',
  'echo',
  'printf',
  'exit',
  'return',
  'test',
  '[',
  '[[',
  'sleep',
  'pwd',
  'cd',
  'export',
  'set',
  'unset',
  'local',
  'declare',
  'typeset',
  'readonly',
  'shift',
  'wait',
  'type',
  'hash',
  'alias',
  'unalias',
  'cat',
  'ls',
  'date',
  'whoami',
]);
/** After `|`, these pass their input through and succeed: the check before them no longer decides. */
const PIPE_FILTER = new Set([
  'tail',
  'head',
  'tee',
  'cat',
  'sort',
  'uniq',
  'wc',
  'less',
  'more',
  'cut',
  'tr',
]);
/** Words that run the command after them. */
const PREFIX = new Set(['!', 'command', 'builtin', 'exec', 'time', 'nohup', 'env']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh']);

type Sep = '' | ';' | '&&' | '||' | '|' | '&';
interface Part {
  words: string[];
  /** The separator before it. */
  sep: Sep;
  /** Followed by a lone `&`: run in the background, its exit code lost. */
  background: boolean;
}

/** Splits a command into simple commands and their words (quotes removed, comments dropped). */
function split(text: string): Part[] {
  const parts: Part[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let quote = '';
  let sep: Sep = '';
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endPart = (next: Sep) => {
    endWord();
    if (words.length) parts.push({ words, sep, background: false });
    words = [];
    sep = next;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (c === '#' && !inWord) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === ';' || c === '\n') endPart(';');
    else if (c === '&' || c === '|') {
      const prev = text[i - 1];
      const next = text[i + 1];
      // Redirections (`2>&1`, `&>file`, `>|file`) are words, not separators.
      if (prev === '>' || prev === '<' || (c === '&' && next === '>')) {
        word += c;
        inWord = true;
      } else if (next === c) {
        endPart(c === '&' ? '&&' : '||');
        i++;
      } else if (c === '|') {
        endPart('|');
        if (next === '&') i++;
      } else {
        endWord();
        if (words.length) parts.push({ words, sep, background: true });
        words = [];
        sep = '&';
      }
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '(' || c === ')') endWord();
    else {
      word += c;
      inWord = true;
    }
  }
  endPart('');
  return parts;
}

const isAssignment = (w: string) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w);
const isRedirection = (w: string) => /^\d*[<>&]/.test(w);

/** The words that run: assignments, redirections, braces and prefixes like `time` left out. */
function commandWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (isRedirection(w)) {
      if (/[<>&]$/.test(w)) i++;
      continue;
    }
    if (w === '{' || w === '}') continue;
    if (!out.length && (isAssignment(w) || PREFIX.has(w))) continue;
    out.push(w);
  }
  return out;
}

/** Whether a simple command checks nothing; `sh -c '…'` and `eval …` are judged by what they run. */
function isNoOp(part: Part, pipefail: boolean, depth: number): boolean {
  if (part.background) return true;
  const [cmd, ...args] = commandWords(part.words);
  if (cmd === undefined) return true;
  if (part.sep === '|' && !pipefail && PIPE_FILTER.has(cmd)) return true;
  if (depth < 3 && SHELLS.has(cmd) && args[0] && /^-[a-z]*c$/.test(args[0]) && args[1] !== undefined)
    return verificationProblem(args[1], depth + 1) !== undefined;
  if (depth < 3 && cmd === 'eval') return verificationProblem(args.join(' '), depth + 1) !== undefined;
  return NO_OP.has(cmd);
}

const errexitOn = (parts: readonly Part[]) =>
  parts.some((p) => {
    const [cmd, ...args] = commandWords(p.words);
    return (
      cmd === 'set' && args.some((a, i) => /^-[a-z]*e/.test(a) || (a === '-o' && args[i + 1] === 'errexit'))
    );
  });

/**
 * Why `command` is no verification, or undefined when its exit code is a check's. The words name
 * the rule, so the model can fix the command rather than guess.
 */
export function verificationProblem(command: string, depth = 0): string | undefined {
  const parts = split(command);
  if (!parts.length) return 'it is only comments or whitespace';
  const pipefail = command.includes('pipefail');
  const noOp = parts.map((p) => isNoOp(p, pipefail, depth));
  if (noOp.every(Boolean)) return 'it runs only no-op commands (true, :, echo, printf, exit, test, cat, ls…)';
  // From the end, no-ops after `&&` run only when what precedes passed: look past them.
  let i = parts.length - 1;
  while (i > 0 && noOp[i] && parts[i]?.sep === '&&') i--;
  const decider = parts[i] as Part;
  const masking = errexitOn(parts) ? ['||', '|', '&'] : [';', '||', '|', '&'];
  if (noOp[i] && masking.includes(decider.sep))
    return `its exit code is that of "${decider.words.join(' ')}", which checks nothing, not that of the check before it`;
  return undefined;
}

/** The refusal `record_verification` answers, saying what counts. */
export function verificationRefusal(command: string, why: string): string {
  const shown = command.length > 120 ? `${command.slice(0, 120)}…` : command;
  return [
    `refused: "${shown}" is no verification: ${why}.`,
    'A verification runs what checks the change — the tests, a build, a type check or a linter (e.g. `npm test`) — and its exit code must be theirs: not only no-ops, and no `|| true`, `; echo …`, `| tail` (without `set -o pipefail`) or `&` after the check.',
  ].join(' ');
}
