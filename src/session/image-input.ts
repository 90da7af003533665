import type { ChatProvider } from './chat-contract.ts';

/**
 * Whether a Chat Completions model reads pictures (issue 28: the executor sees its screenshots).
 * DeepSeek: only its vision model (`deepseek-v4-flash-vision-exp`, the API docs' "Vision" guide);
 * `deepseek-flash` and the other names are text only and answer 400 to an `image_url` part.
 * OpenAI: the GPT-4o, GPT-4.1 and GPT-5 families and the o1/o3/o4 reasoning models; older ones
 * answer "image_url is only supported by certain models". A `compatible` endpoint is unknown and
 * gets text. (Anthropic's Messages API reads pictures on every current model: its client always
 * sends them.)
 */
export function acceptsImages(provider: ChatProvider, model: string): boolean {
  if (provider === 'deepseek') return DEEPSEEK_VISION.has(model);
  if (provider === 'openai') return OPENAI_VISION.test(model);
  return false;
}

const DEEPSEEK_VISION = new Set(['deepseek-v4-flash-vision-exp']);
const OPENAI_VISION = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-5|o1|o3|o4)(-|$)/;
