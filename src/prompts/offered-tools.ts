/**
 * Every tool the code defines for either session (the prompt/tool consistency test keeps this list
 * equal to what the code offers). Prompt text naming one of these is cut where the session does
 * not have it; a name outside this list is not a tool.
 */
export const TOOL_NAMES: ReadonlySet<string> = new Set([
  // executor
  'reply',
  'report',
  'handback',
  'orchestrator_thread_unrelated',
  'message_peer',
  'read_card',
  'read_github',
  'read_chat',
  'read_prompt_revision',
  'list_files',
  'read_file',
  'search_files',
  'write_file',
  'edit_file',
  'run_command',
  'record_verification',
  'commit_and_push',
  'screenshot',
  'open_pr',
  'mark_pr_ready',
  'close_pr',
  'resolve_review_thread',
  'update_plan',
  // main session
  'orchestrator_route',
  'orchestrator_eval',
  'orchestrator_read',
  'orchestrator_reload',
  'orchestrator_prompts_save',
  'orchestrator_note',
  'orchestrator_stop',
  // guards the main session is offered only to be refused
  'sleep',
  'shell',
  'task_wait',
]);

const NAMED = /`([a-z]+(?:_[a-z]+)*)(?:\([^`]*\))?`/g;

/** The tools a piece of prompt text names (backticked, bare or as a call). */
export function toolsNamed(text: string): string[] {
  return [...text.matchAll(NAMED)].map((m) => m[1] as string).filter((n) => TOOL_NAMES.has(n));
}

const LIST_ITEM = /^\s*(?:[-*]|\d+\.)\s/;

/**
 * R-G4 "a profile's prompt names only the tools that profile has": the prompt as this session
 * will read it, with every sentence, list item and list entry that names a tool it is not offered
 * taken out. Text naming no tool is left exactly as it was (so the provider's prefix cache holds).
 */
export function cutToOffered(text: string, offered: ReadonlySet<string>): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const missing = toolsNamed(line).filter((n) => !offered.has(n));
    if (!missing.length) {
      out.push(line);
      continue;
    }
    const kept = toolsNamed(line).filter((n) => offered.has(n));
    if (LIST_ITEM.test(line) && !kept.length) continue;
    const trimmed =
      LIST_ITEM.test(line) && /:\s*`/.test(line) ? dropFromList(line, missing) : dropSentences(line, offered);
    if (trimmed.trim()) out.push(trimmed);
  }
  return out.join('\n');
}

/** "Workspace tools: `a`, `b`, `c`." without the entries not offered. */
function dropFromList(line: string, missing: string[]): string {
  let s = line;
  for (const n of missing) s = s.replace(new RegExp(`\`${n}(?:\\([^\`]*\\))?\`(?:, | and | or )?`, 'g'), '');
  return s.replace(/,\s*\./, '.').replace(/(, | and | or )(?=\.|$)/, '');
}

/** A paragraph without the sentences that name a tool not offered. */
function dropSentences(line: string, offered: ReadonlySet<string>): string {
  const sentences = line.split(/(?<=[.!?])\s+(?=[A-Z`*])/);
  return sentences.filter((s) => toolsNamed(s).every((n) => offered.has(n))).join(' ');
}
