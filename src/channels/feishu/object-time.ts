/**
 * Issue 31: when the message an event is about was sent (`message.create_time`, milliseconds as
 * a string), for the replay check in `ingest`; undefined for events without one (card actions).
 */
export function feishuObjectTime(body: Record<string, unknown>): number | undefined {
  const event = body.event as { message?: { create_time?: unknown } } | undefined;
  const raw = event?.message?.create_time;
  const ms = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : undefined;
  return ms && ms > 0 ? ms : undefined;
}
