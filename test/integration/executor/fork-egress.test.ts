import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardDraft } from '../../../src/cards/card.ts';
import { extractTextRefs } from '../../../src/cards/extract-refs.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Looking at it for ${card}.` }]);
let seq = 0;

/** A Feishu request in the chat bound to acme/web, with the references its parser reads from the text. */
function chatRequest(text: string): CardDraft {
  const id = `om_fork_egress_${process.pid}_${++seq}`;
  return {
    source: 'feishu',
    kind: 'message',
    eventId: id,
    author: { id: 'ou_ada', type: 'person' },
    origin: { source: 'feishu', chatId: 'room', chatType: 'group', messageId: id },
    conversation: 'room',
    request: true,
    refs: extractTextRefs(text),
    text,
  };
}

const interfacesIn = (out: string) => [...out.matchAll(/^\s*([\w.-]+):\s+\d/gm)].map((m) => m[1] as string);

/**
 * Issue 45: a fork's PR turns the sandbox's network off only when named as a PR (a structural ref
 * or a PR URL); named as `acme/web#N` (an `issue` ref — GitHub numbers both alike), and in a
 * chat's first turn (the ticket's repository chosen only after the turn began), egress stayed on.
 */
describe('issue 45: a fork’s PR turns egress off whichever way it is named', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld({ SANDBOX_NETWORK: 'egress' });
  });
  afterEach(async () => w.close());

  /** A message in the chat bound to acme/web; resolves to the interfaces its first command saw. */
  async function interfacesFor(text: string): Promise<string[]> {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['run_command', { command: 'cat /proc/net/dev' }]),
    ]);
    await send(w.app.ctx, chatRequest(text));
    await flow.done();
    return interfacesIn(flow.results[1]?.join() ?? '');
  }

  it('issue 45: “acme/web#N” naming a fork’s PR runs the first turn’s commands with no network', async () => {
    const pull = w.gh.addPull('acme/web', {
      title: 'Faster login',
      head: 'mallory:faster',
      user: { login: 'mallory', type: 'User' },
    });
    pull.head.repo.full_name = 'mallory/web';
    expect(await interfacesFor(`please try acme/web#${pull.number} locally`)).toEqual(['lo']);
  });

  it('issue 45: “acme/web#N” naming an issue keeps SANDBOX_NETWORK=egress', async () => {
    const issue = w.gh.addIssue('acme/web', { title: 'Login loops', body: 'since v2' });
    const interfaces = await interfacesFor(`please fix acme/web#${issue.number}`);
    expect(interfaces).toContain('lo');
    expect(interfaces.length).toBeGreaterThan(1);
  });
});
