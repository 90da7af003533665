import type { ChatContract } from './chat-contract.ts';
import { thinkingOn } from './chat-contract.ts';
import type { ChatMessage } from './chat-message.ts';
import { dataUrl, elidedPictureNote, pictureCaption } from './picture-notes.ts';

/** A part of a user message that carries pictures (Chat Completions' content parts). */
export type WirePart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type WireMessage =
  | ChatMessage
  | { role: 'system'; content: string }
  | { role: 'user'; content: WirePart[] };

/**
 * What a tool-call message stored without reasoning is sent with while thinking is on: one space.
 * Such messages are the executor's acknowledgements (answered with thinking off, issue 28) and
 * transcripts from before issue 12. DeepSeek's docs say only that the reasoning "must be passed
 * back"; an empty string is reported refused by `deepseek-v4-pro` (and accepted by Flash), one
 * space accepted by both, so the placeholder is not empty.
 */
export const REASONING_PLACEHOLDER = ' ';

/**
 * The transcript as one provider is sent it: the stored `reasoning_content` follows DeepSeek's
 * thinking-mode rule (R-H1, issue 12). With thinking on, an assistant message that called tools
 * must carry its reasoning in every later request (DeepSeek answers 400 otherwise), so it goes back
 * — as `REASONING_PLACEHOLDER` for a message stored without one. On every other assistant message
 * it is dropped: the docs say it is ignored there, so sending it costs tokens for nothing. A `compatible` endpoint gets back only what
 * it gave (a DeepSeek model behind a proxy needs it; other servers never produce it); OpenAI never.
 */
export function toWireMessages(
  messages: readonly ChatMessage[],
  contract: ChatContract,
  images = false,
): WireMessage[] {
  const pad = thinkingOn(contract);
  const echo = contract.provider === 'compatible';
  const wire = messages.map((m): ChatMessage => {
    if (m.role === 'tool') {
      const { image: _image, image_elided: _elided, ...rest } = m;
      return rest;
    }
    if (m.role !== 'assistant') return m;
    // Anthropic's thinking blocks are for the Messages API only (anthropic-request.ts).
    const { reasoning_content: reasoning, thinking_blocks: _anthropicOnly, ...rest } = m;
    if (!m.tool_calls?.length) return rest;
    if (pad) return { ...rest, reasoning_content: reasoning || REASONING_PLACEHOLDER };
    if (echo && reasoning !== undefined) return { ...rest, reasoning_content: reasoning };
    return rest;
  });
  return images ? withPictures(messages, wire) : wire;
}

/**
 * Issue 28: for a model that reads pictures, the pictures of a run of tool results follow it in
 * one user message (Chat Completions takes images only from the user), each after a line saying
 * whose it is; a picture elided from the view leaves that line's note instead. Tool messages
 * themselves stay text, as every provider wants them.
 */
function withPictures(messages: readonly ChatMessage[], wire: ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  let parts: WirePart[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'tool' && parts.length) {
      out.push({ role: 'user', content: parts });
      parts = [];
    }
    out.push(wire[i] as ChatMessage);
    if (m.role !== 'tool') return;
    if (m.image) {
      parts.push({ type: 'text', text: pictureCaption(m.image) });
      parts.push({ type: 'image_url', image_url: { url: dataUrl(m.image) } });
    }
    const note = elidedPictureNote(m);
    if (note) parts.push({ type: 'text', text: note });
  });
  if (parts.length) out.push({ role: 'user', content: parts });
  return out;
}
