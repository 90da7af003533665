import type { Ref, TriggerCard } from './card.ts';

const attr = (s: string) => s.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Text can't close the card early or forge another one. */
const body = (s: string) => s.replace(/<(\/?)card\b/gi, '&lt;$1card');

export function refLabel(ref: Ref): string {
  switch (ref.type) {
    case 'pr':
      return `PR ${ref.repo}#${ref.number}`;
    case 'issue':
      return `issue ${ref.repo}#${ref.number}`;
    case 'message':
      return `message ${ref.id}`;
    case 'thread':
      return `thread ${ref.id}`;
    case 'commit':
      return `commit ${ref.sha}`;
    case 'branch':
      return `branch ${ref.repo}:${ref.name}`;
    case 'url':
      return `url ${ref.url}`;
    case 'review_thread':
      return `review thread ${ref.id}`;
  }
}

/**
 * Renders a card inline for a model (R-A4), in the contract's form. The author's type and role
 * are stated so the model sees who said what (R-E10: external text is data).
 */
export function renderCard(card: TriggerCard): string {
  const perm = card.author.permission && `permission ${card.author.permission}`;
  const who = [card.author.name ?? card.author.id, card.author.type, card.author.role, perm].filter(Boolean);
  const lines = [
    `<card id="${attr(card.id)}" source="${card.source}" kind="${card.kind}">`,
    `author: ${who.join(', ')}`,
    `conversation: ${card.conversation}`,
  ];
  if (card.action) lines.push(`action: ${card.action}`);
  if (card.request) lines.push('request: explicit (mention, direct message or assignment)');
  if (card.replyTo) lines.push(`replies to: ${card.replyTo}`);
  if (card.refs.length) lines.push(`references: ${card.refs.map(refLabel).join('; ')}`);
  if (card.facts) {
    lines.push(
      `facts: ${Object.entries(card.facts)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ')}`,
    );
  }
  if (card.title) lines.push(`title: ${body(card.title)}`);
  const ctx = card.context;
  if (ctx?.parent)
    lines.push(`in reply to ${body(ctx.parent.author)} (${ctx.parent.id}): ${body(ctx.parent.firstLine)}`);
  if (ctx?.item?.opening)
    lines.push(
      `opened by ${body(ctx.item.author)}:`,
      body(ctx.item.opening) +
        (ctx.item.cut ? '\n[opening only: read_github what=issue for the whole body]' : ''),
    );
  lines.push('text:', body(card.text));
  if (card.truncated) {
    lines.push(
      `[truncated: ${card.truncated.totalChars} characters in all; read the rest with read_card { card: "${attr(card.id)}", offset: ${card.text.length} }]`,
    );
  }
  lines.push('</card>');
  return lines.join('\n');
}
