import { openQuestion, type TicketStatus } from './status-model.ts';
import { formatElapsed, formatUsage, LABELS } from './status-texts.ts';

const SUMMARY_CAP = 300;

const clip = (s: string, cap: number): string => (s.length > cap ? `${s.slice(0, cap - 1)}…` : s);
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
const link = (text: string, url: string | undefined): string => (url ? `[${text}](${url})` : `\`${text}\``);

/**
 * The body lines both platforms share, in Markdown: step, latest summary, question and choices,
 * answer, pause, branch and PR, elapsed time and budget. Only what is known is shown.
 */
export function statusLines(s: TicketStatus): string[] {
  const lines: string[] = [];
  if (s.step && (s.state === 'working' || s.state === 'blocked')) lines.push(`**${LABELS.step}:** ${s.step}`);
  if (s.summary) lines.push(`**${LABELS.summary}:** ${clip(oneLine(s.summary), SUMMARY_CAP)}`);
  const open = openQuestion(s.question);
  if (open && s.state !== 'done' && open.askedIn === 'reply') {
    // Asked once, in the conversation (issue 15): the card says a question waits, not what it is.
    lines.push(`**${LABELS.question}:** ${LABELS.askedInReply}`);
  } else if (open && s.state !== 'done') {
    lines.push(`**${LABELS.question}:** ${oneLine(open.question)}`);
    open.choices.forEach((c, i) => {
      lines.push(`${i + 1}. ${oneLine(c)}`);
    });
  }
  const answer = s.question?.answer;
  if (answer) lines.push(`**${LABELS.answered}:** ${oneLine(answer.text)} (${answer.by})`);
  if (s.state === 'paused') {
    lines.push(`**${LABELS.pausedBy}:** ${s.pausedBy ?? 'someone'}`);
    lines.push(LABELS.resumeHint);
  }
  if (s.branch) lines.push(`**${LABELS.branch}:** ${link(s.branch.name, s.branch.url)}`);
  if (s.pr) lines.push(`**${LABELS.pr}:** ${link(s.pr.label, s.pr.url)}`);
  lines.push(
    `**${LABELS.elapsed}:** ${formatElapsed(s.elapsedMs)} · **${LABELS.budget}:** ${formatUsage(s.usage)}`,
  );
  return lines;
}
