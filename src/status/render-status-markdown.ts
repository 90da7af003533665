import { hostText } from '../i18n/host-text.ts';
import { statusLines } from './status-lines.ts';
import type { TicketStatus } from './status-model.ts';
import { STATE_EMOJI, stateLabel } from './status-texts.ts';

/**
 * The sticky GitHub comment (and the panel's local chat): the same facts as the Feishu card, in
 * Markdown, in the ticket's language (issue 16). GitHub has no buttons, so it says how to pause or
 * resume instead.
 */
export function renderStatusMarkdown(s: TicketStatus, opts: { hint?: boolean } = {}): string {
  const lang = s.lang ?? 'en';
  const head = `### ${STATE_EMOJI[s.state]} ${s.ticketId} · ${stateLabel(lang, s.state)}`;
  const parts = [head, `**${s.title}**`, statusLines(s, lang).join('  \n')];
  if (opts.hint && s.state !== 'done') parts.push(`<sub>${hostText(lang, 'status.github-hint')}</sub>`);
  return parts.join('\n\n');
}
