import { AMBIGUOUS, type DemoTask, taskFor } from './demo-tasks.ts';

/**
 * The demo's scripted model, a decision per request: it reads the conversation the bot sends (as
 * a model would) and answers with the next tool call. The main session opens a ticket for each
 * new card; an executor acknowledges, reads, edits, commits and pushes, opens a draft PR, runs the
 * sample's tests as its verification, marks the PR ready (after the look at its diff the first
 * call answers with) and reports it done — or, for a request that names no task it knows, asks which one was meant. A tool that
 * refuses ends the turn with a `blocked` report quoting the refusal.
 */

export interface ChatMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

export type Answer = { text: string } | { call: { name: string; arguments: Record<string, unknown> } };

export const isHostNote = (m: ChatMessage) => m.role === 'user' && (m.content ?? '').startsWith('[host]');

/** Where the turn's input is: the newest user message that is not a host note. */
export function inputIndex(messages: ChatMessage[]): number {
  return messages.findLastIndex((m) => m.role === 'user' && !isHostNote(m));
}

/** The tool calls made since the input, each with what it answered. */
export function callsSince(messages: ChatMessage[], from: number): { name: string; result: string }[] {
  const out: { name: string; result: string }[] = [];
  for (const m of messages.slice(from + 1)) {
    for (const c of m.tool_calls ?? []) {
      const result = messages.find((r) => r.role === 'tool' && r.tool_call_id === c.id)?.content ?? '';
      out.push({ name: c.function.name, result });
    }
  }
  return out;
}

/** A turn as a scripted model reads it: its input, the cards in it, and the calls made since. */
export function turnOf(messages: ChatMessage[]): {
  input: string;
  cards: string[];
  done: { name: string; result: string }[];
} {
  const at = inputIndex(messages);
  const input = messages[at]?.content ?? '';
  const cards = [...input.matchAll(/<card id="([^"]+)"/g)].map((m) => m[1] as string);
  return { input, cards, done: callsSince(messages, at) };
}

/**
 * A refusal that asks for the same call again after a look (issue 48's review before
 * `mark_pr_ready`), not one that refuses the work.
 */
export function isReviewAnswer(d: { name: string; result: string }): boolean {
  return d.result.startsWith('Error: ') && d.result.includes(`Call ${d.name} again`);
}

export const call = (name: string, args: Record<string, unknown>): Answer => ({
  call: { name, arguments: args },
});

/** The next answer for a request offering `tools`. */
export function nextAnswer(messages: ChatMessage[], tools: string[], repo: string): Answer {
  const { input, cards, done } = turnOf(messages);
  if (tools.includes('orchestrator_route')) {
    if (done.length || !cards.length) return { text: 'Routed.' };
    return call('orchestrator_route', { decisions: cards.map((card) => ({ card, action: 'open' })) });
  }
  const card = cards[0];
  if (!card) return { text: 'Nothing new.' };
  const last = done.at(-1);
  if (last?.name === 'report') return { text: 'Reported.' };
  if (last?.result.startsWith('Error: ') && !isReviewAnswer(last))
    return call('report', {
      status: 'blocked',
      summary: `${last.name} refused: ${last.result.slice(7, 400)}`,
    });
  const task = taskFor(input);
  return task ? taskStep(task, done, card, repo) : askStep(done.length, card, repo);
}

const fill = (s: string, repo: string) => s.replaceAll('{repo}', repo);

function taskStep(
  task: DemoTask,
  done: { name: string; result: string }[],
  card: string,
  repo: string,
): Answer {
  switch (done.length) {
    case 0:
      return call('reply', { to: card, text: fill(task.ack, repo), purpose: 'ack' });
    case 1:
      return call('read_file', { path: task.path });
    case 2:
      return call('edit_file', { path: task.path, old: task.old, new: task.new });
    case 3:
      return call('commit_and_push', { message: task.commit });
    case 4:
      return call('open_pr', { title: task.title, body: task.body });
    case 5:
      // The sample repository's AGENTS.md asks for `node --test` before a push.
      return call('record_verification', { command: 'node --test' });
    case 6:
    case 7:
      // The first call answers with a look at the diff and marks nothing ready; the second marks it.
      return call('mark_pr_ready', {});
    default: {
      const opened = done.find((c) => c.name === 'open_pr')?.result ?? '';
      const url = /https?:\/\/[^\s);,]+/.exec(opened)?.[0];
      return call('report', {
        status: 'done',
        summary: `${task.title}: verified with \`node --test\` and ready for review${url ? ` at ${url}` : ''}.`,
      });
    }
  }
}

function askStep(step: number, card: string, repo: string): Answer {
  if (step === 0) return call('reply', { to: card, text: fill(AMBIGUOUS.ack, repo), purpose: 'ack' });
  if (step === 1) return call('list_files', {});
  return call('report', {
    status: 'blocked',
    summary: AMBIGUOUS.summary,
    human_action: { question: fill(AMBIGUOUS.question, repo), card, choices: AMBIGUOUS.choices },
  });
}
