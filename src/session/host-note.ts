import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from './chat-message.ts';
import type { TurnRun } from './turn-run.ts';

const dir = fileURLToPath(new URL('../../prompts/loop/', import.meta.url));
const read = async (name: string) => (await readFile(`${dir}${name}.md`, 'utf8')).trim();

/**
 * The host's notes to the model inside a turn (issue 28), Markdown in `prompts/loop/` (STYLE):
 * host mechanics like the compaction texts, not team-editable sections.
 */
const TEXTS = {
  'cut-tool-call': await read('cut-tool-call'),
  'cut-tool-call-files': await read('cut-tool-call-files'),
  'cut-text': await read('cut-text'),
  unfinished: await read('unfinished'),
  budget: await read('budget'),
  'budget-last': await read('budget-last'),
};

/** From this many requests left, tool results carry the budget (issue 28); from `BUDGET_LAST`, the advice. */
export const BUDGET_SHOWN = 5;
const BUDGET_LAST = 2;

export type HostNoteKind = 'cut-tool-call' | 'cut-text' | 'unfinished';

/** How many notes of `kind` this turn has had. */
export const notesGiven = (run: Pick<TurnRun, 'turn'>, kind: HostNoteKind): number =>
  run.turn.notes?.filter((k) => k === kind).length ?? 0;

const fill = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));

/** The note for an answer cut inside a tool call; the file-writing advice only where those tools exist. */
export function cutToolCallNote(run: Pick<TurnRun, 'tools'>, tool: string, max: number | undefined): string {
  const names = new Set(run.tools.map((t) => t.name));
  const files = names.has('write_file') && names.has('edit_file') ? ` ${TEXTS['cut-tool-call-files']}` : '';
  return fill(TEXTS['cut-tool-call'], { tool, max: max ?? 'LLM_MAX_TOKENS' }) + files;
}

export const cutTextNote = (max: number | undefined): string =>
  fill(TEXTS['cut-text'], { max: max ?? 'LLM_MAX_TOKENS' });

/** The line a tool result ends with near the end of the turn's request budget; '' before that. */
export function budgetLine(left: number): string {
  if (left > BUDGET_SHOWN) return '';
  const text = left <= BUDGET_LAST ? TEXTS['budget-last'] : TEXTS.budget;
  const n = Math.max(0, left);
  return `\n\n${fill(text, { requests: `${n} request${n === 1 ? '' : 's'}` })}`;
}

/** The note for a turn ending with work left unreported; `reasons` say what (issue 28). */
export const unfinishedNote = (reasons: string): string => fill(TEXTS.unfinished, { reasons });

/**
 * Appends a note as a user message, one step with its record (`note`), and counts it on the turn
 * state stored with it: a turn resumed elsewhere sees the note in its transcript and does not give
 * it again.
 */
export async function addHostNote(run: TurnRun, kind: HostNoteKind, text: string): Promise<void> {
  const note: ChatMessage = { role: 'user', content: text };
  run.turn.notes = [...(run.turn.notes ?? []), kind];
  await run.store.appendStep(run.sessionId, [note], run.turn, {
    step: { kind: 'note', at: run.now(), index: run.messages.length, note: kind },
  });
  run.messages.push(note);
  run.log?.info({ sessionId: run.sessionId, note: kind }, 'host note added to the turn');
}
