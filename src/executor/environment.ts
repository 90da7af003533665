import type { TurnScope } from './turn-scope.ts';

/** R-E8: an executor's ticket-specific values. */
export function executorEnvironment(scope: TurnScope): Record<string, string> {
  const t = scope.ticket;
  const env: Record<string, string> = {
    ticket: `${t.id}: ${t.title}`,
    requester: t.requester.name ?? t.requester.id,
    'original conversation': t.conversation,
    'opening card': t.openedBy,
  };
  if (t.repo) env.repository = t.repo;
  return env;
}
