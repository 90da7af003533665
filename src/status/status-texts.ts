import type { StatusState } from './status-model.ts';

/** Card and comment texts are notices: they stay in code, not in editable prompts (R-E1). */
export const STATE_LABEL: Record<StatusState, string> = {
  working: 'Working',
  waiting: 'Waiting for an answer',
  paused: 'Paused',
  blocked: 'Blocked',
  done: 'Done',
};

export const STATE_EMOJI: Record<StatusState, string> = {
  working: '🔄',
  waiting: '❓',
  paused: '⏸️',
  blocked: '⛔',
  done: '✅',
};

/** Feishu header colour per state. */
export const STATE_TEMPLATE: Record<StatusState, string> = {
  working: 'blue',
  waiting: 'orange',
  paused: 'grey',
  blocked: 'red',
  done: 'green',
};

/** A few words per executor tool; other tools read as their name. */
const STEP_WORDS: Record<string, string> = {
  reply: 'replying',
  report: 'reporting',
  handback: 'handing a message back',
  read_file: 'reading files',
  list_files: 'reading files',
  search_files: 'searching the code',
  write_file: 'editing files',
  edit_file: 'editing files',
  run_command: 'running a command',
  record_verification: 'verifying',
  commit_and_push: 'committing and pushing',
  open_pr: 'opening a PR',
  mark_pr_ready: 'marking the PR ready',
  close_pr: 'closing the PR',
  resolve_review_thread: 'answering a review',
  attach_screenshot: 'taking a screenshot',
};

export const stepOf = (tool: string): string => STEP_WORDS[tool] ?? tool.replace(/_/g, ' ');

export const LABELS = {
  pause: 'Pause',
  resume: 'Resume',
  step: 'Now',
  summary: 'Latest',
  question: 'Question',
  askedInReply: 'asked in the conversation; reply there to answer',
  answered: 'Answered',
  branch: 'Branch',
  pr: 'PR',
  elapsed: 'Elapsed',
  budget: 'Budget used',
  pausedBy: 'Paused by',
  resumeHint: 'Press Resume or say /resume to let work go on.',
  githubHint: 'Comment `/pause` or `/resume` here to pause or resume this work.',
};

/** `4 min`, `1 h 5 min`, `2 d 3 h`: minutes are enough, so a re-render within a minute is identical. */
export function formatElapsed(ms: number): string {
  const min = Math.floor(Math.max(0, ms) / 60_000);
  if (min < 1) return 'under a minute';
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

export const formatUsage = (u: { modelRequests: number; tokens: number }): string =>
  `${u.modelRequests} model request${u.modelRequests === 1 ? '' : 's'}, ${u.tokens.toLocaleString('en-US')} tokens`;
