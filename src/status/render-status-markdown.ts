import { statusLines } from './status-lines.ts';
import type { TicketStatus } from './status-model.ts';
import { LABELS, STATE_EMOJI, STATE_LABEL } from './status-texts.ts';

/**
 * The sticky GitHub comment (and the panel's local chat): the same facts as the Feishu card, in
 * Markdown. GitHub has no buttons, so it says how to pause or resume instead.
 */
export function renderStatusMarkdown(s: TicketStatus, opts: { hint?: boolean } = {}): string {
  const head = `### ${STATE_EMOJI[s.state]} ${s.ticketId} · ${STATE_LABEL[s.state]}`;
  const parts = [head, `**${s.title}**`, statusLines(s).join('  \n')];
  if (opts.hint && s.state !== 'done') parts.push(`<sub>${LABELS.githubHint}</sub>`);
  return parts.join('\n\n');
}
