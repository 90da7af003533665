import type { Author } from '../cards/card.ts';
import { sanitizeUntrusted } from '../safety/sanitize-text.ts';

/** The most one read hands a model (R-H2): a page, never a whole history. */
export const READ_CAP = 12_000;

/** One message read at its source (R-H6): data with its author and standing, like a card. */
export interface SourceMessage {
  source: 'feishu' | 'github';
  /** `issue`, `issue_comment`, `review_comment`, `message`, … */
  kind: string;
  id: string;
  author: Author;
  /** ISO time, when the source says. */
  at?: string | undefined;
  /** Short facts (`path`, `state`, `resolved`, `chat`, `replies to`). */
  facts?: Record<string, string | number | boolean | undefined>;
  title?: string | undefined;
  text: string;
}

const attr = (s: string) => s.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
/** Text can't close the block early or forge a card or another message. */
const body = (s: string) => s.replace(/<(\/?)(card|message|source)\b/gi, '&lt;$1$2');

/** Who said it and with what standing: the same words as a card's author line. */
export function authorLine(a: Author): string {
  const perm = a.permission && `permission ${a.permission}`;
  return [a.name ?? a.id, a.type, a.role, perm].filter(Boolean).join(', ');
}

/**
 * Renders a read message for a model (R-E10: external text is data): sanitized, escaped, and
 * labelled with its author's type and role, in the shape of `renderCard`.
 */
export function renderMessage(m: SourceMessage): string {
  const lines = [`<message source="${m.source}" kind="${attr(m.kind)}" id="${attr(m.id)}">`];
  lines.push(`author: ${authorLine(m.author)}`);
  if (m.at) lines.push(`at: ${m.at}`);
  const facts = Object.entries(m.facts ?? {}).filter(([, v]) => v !== undefined && v !== '');
  if (facts.length) lines.push(`facts: ${facts.map(([k, v]) => `${k}=${String(v)}`).join(', ')}`);
  if (m.title) lines.push(`title: ${body(sanitizeUntrusted(m.title))}`);
  lines.push('text:', body(sanitizeUntrusted(m.text)), '</message>');
  return lines.join('\n');
}

/**
 * Joins rendered blocks under a header, stopping before `cap` characters: what did not fit is
 * named, with how to read on, never silently dropped.
 */
export function capBlocks(
  header: string,
  blocks: string[],
  more: string | undefined,
  cap = READ_CAP,
): string {
  const out = [header];
  let size = header.length;
  let shown = 0;
  for (const b of blocks) {
    if (size + b.length + 2 > cap && shown > 0) break;
    const piece =
      b.length > cap ? `${b.slice(0, cap - 200)}\n[cut: this message is longer than one read]` : b;
    out.push(piece);
    size += piece.length + 2;
    shown++;
  }
  if (shown < blocks.length)
    out.push(`[${blocks.length - shown} more on this page did not fit; ask for a smaller per_page]`);
  if (more) out.push(more);
  return out.join('\n\n');
}
