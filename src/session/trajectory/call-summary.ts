import { type Excerpt, excerpt } from './excerpt.ts';

/** A tool call's arguments and result, summarised for people (issue 17). */
export interface CallSummary {
  /** The arguments in a line: the path, the command, the message. */
  args: Excerpt;
  /** A command's exit code, when the result names one. */
  exitCode?: number;
  /** Files the call wrote. */
  files?: string[];
  /** A message the call sent: to which card, what, and its outbox key (its delivery). */
  message?: { to: string; text: string; outboxKey: string };
  /**
   * Issue 49 item 2: an `edit_file` call's passage, old → new (each capped at `EDIT_CAP`), so the
   * panel shows the change as a diff rather than the whole resulting file.
   */
  edit?: { old: string; new: string; cut: boolean };
}

/** Characters of each side of an edit the trajectory keeps. */
export const EDIT_CAP = 4000;

type Args = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

function parseArgs(json: string): Args {
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Args) : {};
  } catch {
    return {};
  }
}

/**
 * What a call did, in words: the argument that matters for each known tool, the exit code of a
 * command, the files written, the message sent. `idempotencyKey` is the call's
 * (`<session>:<call key>`), from which the reply tool builds its outbox key.
 */
export function summariseCall(
  name: string,
  argsJson: string,
  resultText: string,
  idempotencyKey: string,
): CallSummary {
  const a = parseArgs(argsJson);
  switch (name) {
    case 'reply':
      return {
        args: excerpt(`to ${str(a.to)} (${str(a.purpose) || 'ack'}): ${str(a.text)}`),
        message: { to: str(a.to), text: str(a.text), outboxKey: `reply:${idempotencyKey}` },
      };
    case 'write_file':
      return { args: excerpt(str(a.path)), files: [str(a.path)] };
    case 'edit_file':
      return { args: excerpt(str(a.path)), files: [str(a.path)], edit: editOf(a) };
    case 'read_file':
      return { args: excerpt(str(a.path)) };
    case 'run_command':
    case 'record_verification':
      return withExit({ args: excerpt(str(a.command)) }, resultText);
    case 'commit_and_push':
      return { args: excerpt(str(a.message)) };
    case 'open_pr':
      return { args: excerpt(str(a.title)) };
    case 'report':
      return { args: excerpt(`${str(a.status)}: ${str(a.summary)}`) };
    default:
      return { args: excerpt(Object.keys(a).length ? JSON.stringify(a) : argsJson) };
  }
}

function editOf(a: Args): NonNullable<CallSummary['edit']> {
  const before = str(a.old);
  const after = str(a.new);
  return {
    old: before.slice(0, EDIT_CAP),
    new: after.slice(0, EDIT_CAP),
    cut: before.length > EDIT_CAP || after.length > EDIT_CAP,
  };
}

function withExit(summary: CallSummary, resultText: string): CallSummary {
  const code = exitCodeOf(resultText);
  return code === undefined ? summary : { ...summary, exitCode: code };
}

/**
 * The exit code a command tool's result names on its first line (`exit 0`, or
 * `recorded at <sha>: exit 1`); undefined for a time-out or a refusal. Reads one line with
 * `indexOf` and an anchored pattern: linear on any text.
 */
export function exitCodeOf(text: string): number | undefined {
  const nl = text.indexOf('\n');
  const line = nl < 0 ? text : text.slice(0, nl);
  const at = line.indexOf('exit ');
  if (at < 0 || (at > 0 && line[at - 1] !== ' ')) return undefined;
  const digits = /^-?\d{1,4}/.exec(line.slice(at + 5));
  return digits ? Number(digits[0]) : undefined;
}
