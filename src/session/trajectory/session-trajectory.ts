import { type AssistantMessage, type ChatMessage, callKey, type ToolCall } from '../chat-message.ts';
import type { StepRecord } from '../step-log.ts';
import type { ToolResult } from '../tool.ts';
import { summariseCall } from './call-summary.ts';
import { excerpt } from './excerpt.ts';
import type { TrajectoryStep } from './trajectory-step.ts';

/** A session as stored: its transcript, its tool results by call key, its step records. */
export interface StoredSession {
  id: string;
  messages: readonly ChatMessage[];
  results: ReadonlyMap<string, ToolResult>;
  records: readonly StepRecord[];
}

type Placed = Extract<StepRecord, { kind: 'compaction' | 'end' }>;

/**
 * Every step of every turn of one session, in transcript order (issue 17): each turn's input, each
 * model answer with what it cost, each tool call with its result, the host's notes, compactions and
 * turn ends from the step records. A message without a record (stored before records existed) still shows.
 */
export function sessionTrajectory(s: StoredSession): TrajectoryStep[] {
  const byIndex = new Map<number, StepRecord>();
  const before = new Map<number, Placed[]>();
  for (const r of s.records) {
    if (r.kind === 'compaction' || r.kind === 'end') before.set(r.index, [...(before.get(r.index) ?? []), r]);
    else byIndex.set(r.index, r);
  }
  const out: TrajectoryStep[] = [];
  const calls = new Map<string, { call: ToolCall; assistantIndex: number }>();
  s.messages.forEach((m, i) => {
    for (const r of before.get(i) ?? []) out.push(placed(s.id, r));
    const record = byIndex.get(i);
    if (m.role === 'user' && record?.kind === 'note')
      out.push({ kind: 'note', session: s.id, at: record.at, note: record.note, text: excerpt(m.content) });
    else if (m.role === 'user') out.push(turnStep(s.id, m.content, record));
    else if (m.role === 'assistant') {
      for (const call of m.tool_calls ?? []) calls.set(call.id, { call, assistantIndex: i });
      out.push(modelStep(s.id, m, record));
    } else {
      const found = calls.get(m.tool_call_id);
      out.push(toolStep(s, m.content, found, record));
    }
  });
  for (const [index, records] of before) {
    if (index >= s.messages.length) for (const r of records) out.push(placed(s.id, r));
  }
  return out;
}

const when = (r: StepRecord | undefined) => (r ? { at: r.at } : {});

function turnStep(session: string, content: string, r: StepRecord | undefined): TrajectoryStep {
  return {
    kind: 'turn',
    session,
    ...when(r),
    ...(r?.kind === 'turn' ? { turnId: r.turnId } : {}),
    input: excerpt(content),
  };
}

function modelStep(session: string, m: AssistantMessage, r: StepRecord | undefined): TrajectoryStep {
  const thinking = (m.thinking_blocks ?? []).reduce(
    (n, b) => n + (b.type === 'thinking' ? b.thinking.length : 0),
    0,
  );
  return {
    kind: 'model',
    session,
    ...when(r),
    ...(r?.kind === 'model'
      ? {
          ms: r.ms,
          model: r.model,
          usage: r.usage,
          ...(r.revision === undefined ? {} : { revision: r.revision }),
        }
      : {}),
    text: m.content ? excerpt(m.content) : null,
    reasoningChars: (m.reasoning_content?.length ?? 0) + thinking,
    calls: (m.tool_calls ?? []).map((c) => c.function.name),
  };
}

function toolStep(
  s: StoredSession,
  content: string,
  found: { call: ToolCall; assistantIndex: number } | undefined,
  r: StepRecord | undefined,
): TrajectoryStep {
  const name = found?.call.function.name ?? '?';
  const key = found ? callKey(found.assistantIndex, found.call.id) : '';
  const result = s.results.get(key);
  const text = result ? (result.ok ? result.content : result.error) : content;
  return {
    kind: 'tool',
    session: s.id,
    ...when(r),
    ...(r?.kind === 'tool' ? { ms: r.ms } : {}),
    name,
    callKey: key,
    ok: result ? result.ok : true,
    result: excerpt(text),
    ...summariseCall(name, found?.call.function.arguments ?? '{}', text, `${s.id}:${key}`),
  };
}

function placed(session: string, r: Placed): TrajectoryStep {
  if (r.kind === 'end')
    return { kind: 'end', session, at: r.at, outcome: r.outcome, ...(r.detail ? { detail: r.detail } : {}) };
  const { index: _index, ...rest } = r;
  return { ...rest, session };
}
