/** Words as people count them: runs of letters/digits; each CJK character counts as one word. */
export function countWords(text: string): number {
  const cjk = text.match(/[\u3400-\u9fff\uf900-\ufaff]/g)?.length ?? 0;
  const rest =
    text.replace(/[\u3400-\u9fff\uf900-\ufaff]/g, ' ').match(/[\p{L}\p{N}][\p{L}\p{N}'’_\-./:#@]*/gu)
      ?.length ?? 0;
  return cjk + rest;
}

/** R-B1 routing notes, R-B5 cross-ticket notes, R-D1 chat messages. */
export const LIMITS = { routingNote: 30, crossTicketNote: 100, chatMessage: 100 } as const;
