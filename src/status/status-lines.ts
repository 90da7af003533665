import { hostText } from '../i18n/host-text.ts';
import type { Lang } from '../i18n/lang.ts';
import { openQuestion, type TicketStatus } from './status-model.ts';
import { formatElapsed, formatUsage, stepText } from './status-texts.ts';

const SUMMARY_CAP = 300;
const PLAN_CAP = 12;
const PLAN_MARK = { completed: '✓', in_progress: '▶', pending: '○' } as const;

const clip = (s: string, cap: number): string => (s.length > cap ? `${s.slice(0, cap - 1)}…` : s);
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
const link = (text: string, url: string | undefined): string => (url ? `[${text}](${url})` : `\`${text}\``);

/**
 * The body lines both platforms share, in Markdown and in `lang`: step, latest summary, question
 * and choices, answer, pause, branch and PR, elapsed time and budget. Only what is known is shown.
 */
export function statusLines(s: TicketStatus, lang: Lang): string[] {
  // A label carries its language's colon (`Now:`, `当前：`).
  const label = (key: Parameters<typeof hostText>[1]) => `**${hostText(lang, key)}**`;
  const lines: string[] = [];
  if (s.step && (s.state === 'working' || s.state === 'blocked'))
    lines.push(`${label('status.label.step')} ${stepText(lang, s.step)}`);
  if (s.summary) lines.push(`${label('status.label.summary')} ${clip(oneLine(s.summary), SUMMARY_CAP)}`);
  const open = openQuestion(s.question);
  if (open && s.state !== 'done' && open.askedIn === 'reply') {
    // Asked once, in the conversation (issue 15): the card says a question waits, not what it is.
    lines.push(`${label('status.label.question')} ${hostText(lang, 'status.asked-in-reply')}`);
  } else if (open && s.state !== 'done') {
    lines.push(`${label('status.label.question')} ${oneLine(open.question)}`);
    open.choices.forEach((c, i) => {
      lines.push(`${i + 1}. ${oneLine(c)}`);
    });
  }
  const answer = s.question?.answer;
  if (answer) lines.push(`${label('status.label.answered')} ${oneLine(answer.text)} (${answer.by})`);
  if (s.state === 'paused') {
    lines.push(`${label('status.label.paused-by')} ${s.pausedBy ?? hostText(lang, 'status.someone')}`);
    lines.push(hostText(lang, 'status.resume-hint'));
  }
  if (s.branch) lines.push(`${label('status.label.branch')} ${link(s.branch.name, s.branch.url)}`);
  if (s.pr) lines.push(`${label('status.label.pr')} ${link(s.pr.label, s.pr.url)}`);
  if (s.plan?.length && s.state !== 'done') {
    // Issue 48: the executor's plan, one line a step, the one under way marked.
    lines.push(label('status.label.plan'));
    for (const p of s.plan.slice(0, PLAN_CAP))
      lines.push(`- ${PLAN_MARK[p.status]} ${clip(oneLine(p.step), 120)}`);
  }
  lines.push(
    `${label('status.label.elapsed')} ${formatElapsed(lang, s.elapsedMs)} · ${label('status.label.budget')} ${formatUsage(lang, s.usage)}`,
  );
  return lines;
}
