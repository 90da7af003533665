import { type Answer, type ChatMessage, call, turnOf } from '../demo/demo-script.ts';
import { mainStep } from './oracle-script.ts';

/**
 * The null baseline (issue 47, `--baseline null`): a scripted model that acknowledges each
 * request and does nothing else — no question, no report, no change. The main session routes as
 * the oracle does, so the ticket opens and follow-ups reach it. It is the floor of the score:
 * a suite where it resolves anything (a no-change task scored for silence) cannot tell work
 * from none.
 */
export function nullDecider() {
  const seen: { mainFirst?: string } = {};
  return (messages: ChatMessage[], tools: string[]): Answer => {
    const { input, cards, done } = turnOf(messages);
    if (tools.includes('orchestrator_route')) return mainStep(seen, input, cards, done.length);
    const card = cards[0];
    if (!card || done.length) return { text: 'Seen.' };
    return call('reply', { to: card, text: 'Seen; looking at it.', purpose: 'ack' });
  };
}
