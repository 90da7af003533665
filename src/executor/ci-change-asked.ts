import type { TriggerCard } from '../cards/card.ts';
import { loadCard } from '../cards/ingest.ts';
import { repoPermission } from '../safety/author-permission.ts';
import { isRequest, type TurnScope } from './turn-scope.ts';
import { ciEntryOf } from './workspace/ci-config-paths.ts';

/** Whether the card's words name `file`, or the CI path it lies under (`.github/workflows`). */
function names(card: TriggerCard, paths: readonly string[], file: string): boolean {
  const words = `${card.title ?? ''}\n${card.text}`.toLowerCase();
  const entry = ciEntryOf(paths, file)?.replace(/\/$/, '');
  return words.includes(file.toLowerCase()) || (entry !== undefined && words.includes(entry.toLowerCase()));
}

/**
 * Issue 31: who asked for changing CI configuration `files` in `repo`. Only a request of this
 * ticket counts — the one that opened it, or one of this turn's (never data from elsewhere or from
 * someone who may not steer it) — whose text names each file or its CI path, from a GitHub person
 * with `admin` permission on `repo` (looked up there, whatever their standing where they wrote).
 * Returns that card's id, or undefined: then the change is not pushed, and nothing asks GitHub for
 * the `workflows` permission.
 */
export async function ciChangeAskedBy(
  scope: TurnScope,
  repo: string,
  files: readonly string[],
): Promise<string | undefined> {
  const { ctx } = scope.rt;
  const paths = ctx.config.CI_CONFIG_PATHS;
  const opener = scope.batch.get(scope.ticket.openedBy) ?? (await loadCard(ctx, scope.ticket.openedBy));
  const cards = [opener, ...[...scope.batch.values()].filter((c) => isRequest(scope, c))];
  const seen = new Set<string>();
  for (const card of cards) {
    if (!card || seen.has(card.id)) continue;
    seen.add(card.id);
    if (card.origin.source !== 'github' || card.author.type !== 'person') continue;
    if (!files.every((f) => names(card, paths, f))) continue;
    if ((await repoPermission(ctx, repo, card.author.id)) === 'admin') return card.id;
  }
  return undefined;
}
