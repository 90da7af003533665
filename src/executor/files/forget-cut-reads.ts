import { posix } from 'node:path';
import type { Ctx } from '../../context.ts';
import type { ChatMessage, ToolCall } from '../../session/chat-message.ts';
import { type ContextState, viewedMessage } from '../../session/context/context-state.ts';
import { forgetFilesSeen } from './file-reads.ts';

/** Where the model last saw a file whole: a `read_file` answer, or the content of its own `write_file`. */
interface Sighting {
  path: string;
  /** The message that holds what it saw. */
  index: number;
}

/** The path as `confinePath` names it (`./src//a.ts` → `src/a.ts`); undefined for no path. */
function relOf(args: string): string | undefined {
  try {
    const path = (JSON.parse(args || '{}') as { path?: unknown }).path;
    if (typeof path !== 'string' || path.trim() === '') return undefined;
    return posix.join('/', path.trim()).slice(1) || '.';
  } catch {
    return undefined;
  }
}

/** Every read and write of a file in the transcript, oldest first. */
function sightings(messages: readonly ChatMessage[]): Sighting[] {
  const out: Sighting[] = [];
  let calls = new Map<string, ToolCall>();
  messages.forEach((m, index) => {
    if (m.role === 'assistant') {
      calls = new Map((m.tool_calls ?? []).map((c) => [c.id, c]));
      for (const c of m.tool_calls ?? []) {
        const path = c.function.name === 'write_file' ? relOf(c.function.arguments) : undefined;
        if (path) out.push({ path, index });
      }
    } else if (m.role === 'tool') {
      const c = calls.get(m.tool_call_id);
      const path = c?.function.name === 'read_file' ? relOf(c.function.arguments) : undefined;
      if (path) out.push({ path, index });
    }
  });
  return out;
}

/** Whether the view under `state` no longer shows message `index` as it was stored. */
function isCut(messages: readonly ChatMessage[], index: number, state: ContextState): boolean {
  if (index < state.summarisedBefore) return true;
  const m = messages[index] as ChatMessage;
  return viewedMessage(messages, index, state).content !== m.content;
}

/**
 * The files whose last read or write the compacted view (`state`) no longer shows whole (issue 28,
 * read before write): the model knows them only from memory or a summary now, so it must read them
 * again before replacing them. A file read again after the cut stays known.
 */
export function cutReads(messages: readonly ChatMessage[], state: ContextState): string[] {
  const last = new Map<string, number>();
  for (const s of sightings(messages)) last.set(s.path, s.index);
  return [...last].filter(([, index]) => isCut(messages, index, state)).map(([path]) => path);
}

/**
 * Forgets, before a compaction is saved, the reads it cuts. Called first so that a worker dying
 * between the two has forgotten too much (the model reads again), never too little.
 */
export async function forgetCutReads(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  sessionId: string,
  messages: readonly ChatMessage[],
  state: ContextState,
): Promise<void> {
  await forgetFilesSeen(ctx, sessionId, cutReads(messages, state));
}
