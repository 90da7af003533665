import type { Config } from '../config.ts';
import type { ChatMessage } from '../session/chat-message.ts';
import type { ModelClient, ModelRequest } from '../session/model-client.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, off, ok, problem } from './finding.ts';
import { modelFix } from './model-fix.ts';
import { withTimeout } from './with-timeout.ts';

const PING: ModelRequest['tools'][number] = {
  type: 'function',
  function: {
    name: 'doctor_ping',
    description: 'Health check. Call it once with word "ping".',
    parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  },
};
const SYSTEM =
  'You are a health check. Call doctor_ping once with word "ping"; after its result, answer "done".';

/**
 * One tool-call round trip per session kind, with the client (model, provider, thinking
 * settings) sessions use: a request offering one tool, the tool call back, its result sent, an
 * answer. The second request is the one a provider's history rules break (DeepSeek's 400 for a
 * tool-call turn without its `reasoning_content`), so it is part of the check.
 */
export async function checkModel(
  config: Config,
  models: { main?: ModelClient; executor?: ModelClient },
  timeoutMs: number,
  say: Say,
): Promise<Finding[]> {
  const kinds = (['main', 'executor'] as const).filter((k) => models[k]);
  if (!kinds.length) return [off('model', say('model.off'))];
  return Promise.all(kinds.map((k) => roundTrip(config, k, models[k] as ModelClient, timeoutMs, say)));
}

async function roundTrip(
  config: Config,
  kind: 'main' | 'executor',
  model: ModelClient,
  timeoutMs: number,
  say: Say,
): Promise<Finding> {
  const check = `model (${kind})`;
  const started = Date.now();
  const messages: ChatMessage[] = [{ role: 'user', content: 'Run the health check.' }];
  try {
    const first = await withTimeout(
      model.complete({ system: SYSTEM, messages, tools: [PING] }),
      timeoutMs,
      'model',
    );
    const calls = first.message.tool_calls ?? [];
    if (!calls.length)
      return problem(check, say('model.no-tool-call', { model: model.model }), say('model.no-tool-call.fix'));
    messages.push(
      first.message,
      ...calls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: 'pong' })),
    );
    await withTimeout(model.complete({ system: SYSTEM, messages, tools: [PING] }), timeoutMs, 'model');
    return ok(check, say('model.ok', { model: model.model, ms: Date.now() - started }));
  } catch (err) {
    const { detail, fix } = modelFix(err, config, model.model, say);
    return problem(check, say('model.failed', { error: detail }), fix);
  }
}
