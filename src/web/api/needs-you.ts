import type { Ctx } from '../../context.ts';
import { deliveryTrouble } from '../../outbox/delivery-trouble.ts';
import { troubleSummary } from '../../outbox/trouble-summary.ts';
import { getTicket, listTickets } from '../../tickets/ticket-store.ts';
import { SCANNED, summaries } from './ticket-list.ts';

/** How many tickets with deliveries failed for good are listed with their keys (each a queue scan). */
const DELIVERY_TICKETS = 10;
const ERROR_CHARS = 200;

/** One thing a person must act on (issue 49 item 3), with what the panel needs for its action. */
export type NeedItem =
  | { kind: 'answer'; ticketId: string; title: string; at: number; question: string; source: string }
  | { kind: 'blocked' | 'budget'; ticketId: string; title: string; at: number }
  | {
      kind: 'delivery';
      ticketId: string;
      title: string;
      at: number;
      deliveries: { key: string; op: string; error: string }[];
    };

const ORDER = { answer: 0, blocked: 1, budget: 2, delivery: 3 } as const;

type DeliveryItem = Extract<NeedItem, { kind: 'delivery' }>;

/** Deliveries failed for good, per ticket, with their keys (the Retry button sends one again). */
async function failedDeliveries(ctx: Ctx): Promise<DeliveryItem[]> {
  const { tickets } = await troubleSummary(ctx);
  const failing = tickets.filter((x) => x.failed > 0).slice(0, DELIVERY_TICKETS);
  return Promise.all(
    failing.map(async ({ ticketId }): Promise<DeliveryItem> => {
      const [trouble, ticket] = await Promise.all([deliveryTrouble(ctx, ticketId), getTicket(ctx, ticketId)]);
      const failed = trouble.filter((d) => d.state === 'failed');
      return {
        kind: 'delivery',
        ticketId,
        title: ticket?.title ?? '',
        at: Math.max(0, ...failed.map((d) => d.at ?? 0)),
        deliveries: failed.map((d) => ({ key: d.key, op: d.op, error: d.error.slice(0, ERROR_CHARS) })),
      };
    }),
  );
}

/**
 * `GET /api/needs-you` (issue 49 item 3): the tickets waiting on an answer (with the question),
 * blocked, or paused for their budget, among the newest 500, and the deliveries failed for good —
 * answers first, newest first within a kind.
 */
export async function needsYou(ctx: Ctx): Promise<{ items: NeedItem[] }> {
  const [rows, deliveries] = await Promise.all([
    listTickets(ctx, SCANNED).then((t) => summaries(ctx, t)),
    failedDeliveries(ctx),
  ]);
  const waiting = rows.flatMap((t): NeedItem[] => {
    const base = { ticketId: t.id, title: t.title, at: t.updatedAt };
    if (t.waitingOn === 'answer')
      return [{ kind: 'answer', ...base, question: t.question ?? '', source: t.source }];
    if (t.waitingOn === 'blocked' || t.waitingOn === 'budget') return [{ kind: t.waitingOn, ...base }];
    return [];
  });
  const items = [...waiting, ...deliveries.filter((d) => d.deliveries.length)];
  items.sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || b.at - a.at);
  return { items };
}
