import { createHash } from 'node:crypto';

/** The payload objects whose id and update time name one change, the most specific first. */
const OBJECTS = ['comment', 'review', 'pull_request', 'issue', 'check_run', 'check_suite'] as const;

type Loose = Record<string, unknown> | undefined;
const field = (o: Loose, name: string): unknown => (o && typeof o === 'object' ? o[name] : undefined);
const text = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;

/**
 * Issue 14: what a webhook body is about, apart from its delivery id — the event, repository,
 * object id, action and the object's update time (plus the label, assignee or reviewer an action
 * names). GitHub signs the body, not `X-GitHub-Delivery`, so a captured body replayed under a new
 * delivery id must dedupe on this too. Undefined when the payload carries no update time: then the
 * delivery id alone decides, as before.
 */
export function githubReplayKey(event: string, payload: unknown): string | undefined {
  const p = payload as Loose;
  const repo = text(field(field(p, 'repository') as Loose, 'full_name')) ?? '';
  for (const name of OBJECTS) {
    const obj = field(p, name) as Loose;
    const id = text(field(obj, 'id')) ?? text(field(obj, 'number'));
    if (!id) continue;
    const at =
      text(field(obj, 'updated_at')) ?? text(field(obj, 'submitted_at')) ?? text(field(obj, 'completed_at'));
    if (!at) return undefined;
    const extra =
      text(field(field(p, 'label') as Loose, 'name')) ??
      text(field(field(p, 'assignee') as Loose, 'login')) ??
      text(field(field(p, 'requested_reviewer') as Loose, 'login')) ??
      '';
    const key = [event, repo.toLowerCase(), name, id, text(field(p, 'action')) ?? '', at, extra].join('\0');
    return createHash('sha256').update(key).digest('hex');
  }
  return undefined;
}

/** The time fields of a payload object, any of which may say when it last changed. */
const TIMES = ['created_at', 'updated_at', 'submitted_at', 'completed_at'] as const;

/**
 * Issue 31: when the object a webhook is about last changed (the latest of its creation, update,
 * submission and completion times) — the most specific object, as in `githubReplayKey` — for the
 * replay check in `ingest`; undefined when it carries no time.
 */
export function githubObjectTime(payload: unknown): number | undefined {
  const p = payload as Loose;
  for (const name of OBJECTS) {
    const obj = field(p, name) as Loose;
    if (!(text(field(obj, 'id')) ?? text(field(obj, 'number')))) continue;
    const times = TIMES.map((t) => field(obj, t))
      .map((v) => (typeof v === 'string' && v.length <= 40 ? Date.parse(v) : Number.NaN))
      .filter((v) => Number.isFinite(v));
    return times.length ? Math.max(...times) : undefined;
  }
  return undefined;
}
