import type { CardDraft, Ref } from '../../cards/card.ts';
import { extractTextRefs } from '../../cards/extract-refs.ts';
import { type ParseOutcome, parsedCard } from '../../cards/parse-outcome.ts';

/** What the event parsers need besides the payload. */
export interface ParseContext {
  /** This bot's login: its own events are `self`, `@login` is a mention (R-A2). */
  botLogin: string;
  /** GitHub Enterprise hosts whose URLs count as PR/issue references. */
  githubHosts?: string[];
}

/** `owner/name#12`: the conversation an issue or PR and all its comments share. */
export const conversationOf = (repo: string, number: number): string => `${repo}#${number}`;

/** The issue or PR itself as a reference. */
export const itemRef = (repo: string, number: number, isPullRequest: boolean): Ref =>
  isPullRequest ? { type: 'pr', repo, number } : { type: 'issue', repo, number };

/**
 * A PR's head branch and SHA, so a push or a check on it finds the ticket (R-B2). An empty branch
 * name names nothing (GitHub never sends one; a forged payload may) and is left out.
 */
export function headRefs(
  repo: string,
  head: { ref: string; sha: string; repo?: { full_name: string } | null | undefined },
): Ref[] {
  const refs: Ref[] = head.ref
    ? [{ type: 'branch', repo: head.repo?.full_name ?? repo, name: head.ref }]
    : [];
  if (/^[0-9a-f]{7,40}$/.test(head.sha)) refs.push({ type: 'commit', sha: head.sha });
  return refs;
}

/** Structural refs first, then those written in the text; each once. */
export function mergeRefs(structural: Ref[], text: string, repo: string, pctx: ParseContext): Ref[] {
  const opts = pctx.githubHosts ? { githubHosts: pctx.githubHosts } : {};
  const written = extractTextRefs(text, repo, opts);
  if (written.length === 0) return structural;
  const seen = new Set<string>();
  return [...structural, ...written].filter((r) => {
    const key = JSON.stringify(r);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Drops undefined optional fields (`exactOptionalPropertyTypes`) and sets the source. */
export function githubDraft(d: Omit<CardDraft, 'source'>): ParseOutcome {
  const draft: Record<string, unknown> = { source: 'github', ...d };
  for (const k in draft) if (draft[k] === undefined) delete draft[k];
  return parsedCard(draft as CardDraft);
}
