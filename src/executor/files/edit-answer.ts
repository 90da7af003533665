import { type ToolResult, toolError } from '../../session/tool.ts';
import type { Applied } from './apply-edit.ts';
import { closestPassage } from './closest-passage.ts';
import { type Found, passageLines } from './find-passage.ts';
import { fileLines, lineSpan, NUMBER_PREFIX, numberedRange } from './numbered-lines.ts';

/** Lines shown around a change, and the most a snippet shows. */
const AROUND = 3;
const SNIPPET_MAX = 40;

/** Whether every line of `old` starts with read_file's line number: the model copied the display. */
export function hasNumberPrefixes(old: string): boolean {
  const lines = passageLines(old).filter((l) => l.trim() !== '');
  return lines.length > 0 && lines.every((l) => NUMBER_PREFIX.test(l));
}

/** 1-based lines where each match of `found` starts in `text`. */
export function matchLines(text: string, found: Found): number[] {
  if (found.kind === 'tolerant') return found.lines.map((i) => i + 1);
  if (found.kind === 'none') return [];
  const out: number[] = [];
  let line = 1;
  let from = 0;
  for (const at of found.at) {
    for (let i = text.indexOf('\n', from); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
    from = at;
    out.push(line);
  }
  return out;
}

/** The refusal for an `old` found nowhere: the closest passage with its numbers, or what to do. */
export function noMatch(rel: string, lines: readonly string[], old: string): ToolResult {
  if (hasNumberPrefixes(old))
    return toolError(
      `refused: every line of old starts with a read_file line number ("   12\\t"); drop those prefixes — old is the file's text only`,
    );
  const near = closestPassage(lines, old);
  if (!near)
    return toolError(`old is not in ${rel}, and no passage resembles it; read_file it to see what it holds`);
  const last = near.first + near.span;
  // One line of context either side: `near.first` is 0-based, so it is the line before, 1-based.
  const shown = numberedRange(lines, near.first, last + 1);
  return toolError(
    `old is not in ${rel}. The closest passage is ${lineSpan(near.first + 1, last)}:\n${shown}\nCopy old exactly from the file's current text (without the line numbers), or read_file it again.`,
  );
}

/** The success answer: what happened, and the changed lines with a few around them, numbered. */
export function editedAnswer(rel: string, found: Found, at: number[], applied: Applied): string {
  const first = applied.changes[0] ?? { line: 1, count: 1 };
  const lines = fileLines(applied.text);
  const from = first.line - AROUND;
  const to = Math.min(first.line + first.count - 1 + AROUND, from + SNIPPET_MAX);
  const snippet = lines.length ? numberedRange(lines, from, to) : '(the file is now empty)';
  if (found.kind === 'tolerant')
    return `edited ${rel}: no exact match; old matched ${lineSpan(first.line, first.line + found.span - 1)} ${found.how}, and those lines were replaced. Now:\n${snippet}`;
  if (at.length > 1)
    return `edited ${rel}: replaced ${at.length} occurrences (lines ${matchLinesList(applied)}). The first now reads:\n${snippet}`;
  return `edited ${rel}:\n${snippet}`;
}

const matchLinesList = (applied: Applied) => lineList(applied.changes.map((c) => c.line));

/** Line numbers for the model: the first 20, then how many more (a one-character `old` may match millions). */
export function lineList(lines: readonly number[]): string {
  const shown = lines.slice(0, 20).join(', ');
  return lines.length > 20 ? `${shown} and ${lines.length - 20} more` : shown;
}
