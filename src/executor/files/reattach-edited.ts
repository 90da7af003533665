import { readFile, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ctx } from '../../context.ts';
import type { ChatMessage } from '../../session/chat-message.ts';
import { readCheckoutFile } from '../workspace/checkout-file.ts';
import { confinePath } from '../workspace/confine-path.ts';
import { loadWorkspace } from '../workspace/workspace-record.ts';
import { noteFileSeen } from './file-reads.ts';
import { fileLines, numberedRange } from './numbered-lines.ts';

const TEMPLATE = (
  await readFile(fileURLToPath(new URL('../../../prompts/context/reattached.md', import.meta.url)), 'utf8')
).trim();

/** How many files come back, and the most lines of each. */
const FILES = 5;
const LINES = 200;

/**
 * The paths the session changed with write_file or edit_file, newest first, each once. A call the
 * tool refused (its result an error) or that has no result changed nothing and does not count.
 */
export function editedPaths(messages: readonly ChatMessage[]): string[] {
  const changed = new Set<string>();
  for (const m of messages)
    if (m.role === 'tool' && !m.content.startsWith('Error: ')) changed.add(m.tool_call_id);
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'assistant') continue;
    for (const c of [...(m.tool_calls ?? [])].reverse()) {
      if (c.function.name !== 'write_file' && c.function.name !== 'edit_file') continue;
      if (!changed.has(c.id)) continue;
      const path = pathOf(c.function.arguments);
      if (path && !out.includes(path)) out.push(path);
    }
  }
  return out.slice(0, FILES);
}

function pathOf(args: string): string | undefined {
  try {
    const path = (JSON.parse(args || '{}') as { path?: unknown }).path;
    return typeof path === 'string' && path.trim() ? posix.join('/', path.trim()).slice(1) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * After a compaction summarised the steps away (issue 48 item 5, as Claude Code re-attaches the
 * files it edited): the up to five files the session changed most recently, as the checkout holds
 * them now, numbered and cut at `LINES` lines and at `budgetChars` in all, each noted as read for
 * the lines it shows. Undefined when there are none, or no checkout on this machine.
 */
export async function reattachEdited(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>,
  ticketId: string,
  sessionId: string,
  messages: readonly ChatMessage[],
  budgetChars: number,
): Promise<string | undefined> {
  const paths = editedPaths(messages);
  const ws = paths.length ? await loadWorkspace(ctx, ticketId) : undefined;
  if (!ws || !(await stat(ws.dir).catch(() => undefined))) return undefined;
  const shown: string[] = [];
  let left = budgetChars;
  for (const path of paths) {
    const p = await confinePath(ws.dir, path);
    const got = p.ok ? await readCheckoutFile(p) : undefined;
    if (!p.ok || !got?.ok) continue;
    const lines = fileLines(got.text);
    let to = Math.min(lines.length, LINES);
    let body = numberedRange(lines, 1, to);
    while (to > 0 && body.length > left) {
      to = Math.floor(to / 2);
      body = numberedRange(lines, 1, to);
    }
    if (to === 0 && lines.length) break;
    left -= body.length;
    await noteFileSeen(ctx, sessionId, p.rel, got.text, { from: 1, to, total: lines.length });
    const cut = to < lines.length ? `\n(lines 1–${to} of ${lines.length})` : '';
    shown.push(`${p.rel}:\n${body || '(empty)'}${cut}`);
  }
  return shown.length ? TEMPLATE.replace('{files}', () => shown.join('\n\n')) : undefined;
}
