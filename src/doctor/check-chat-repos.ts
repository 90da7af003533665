import type { Config } from '../config.ts';
import type { Ctx } from '../context.ts';
import { listChatRepos } from '../router/chat-repos.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, ok, problem } from './finding.ts';

const CHECK = 'feishu';

/**
 * Issue 31: a Feishu chat works only in the repositories bound to it (`CHAT_REPOS`, `/repo` by a
 * settings admin, the panel's Setup), so a chat with none can do no work. Each chat `ALLOWED_CHATS`
 * names must have one; with no chat listed, at least one chat must. A store that does not answer
 * is left to the Redis check.
 */
export async function checkChatRepos(config: Config, store: Pick<Ctx, 'redis' | 'keys'>, say: Say) {
  if (!config.feishuEnabled) return [];
  const set = await listChatRepos(store).catch(() => undefined);
  if (!set) return [];
  const bound = new Set([...config.CHAT_REPOS.keys(), ...Object.keys(set)]);
  const fix = say('feishu.chats-bound.fix');
  const unbound = config.ALLOWED_CHATS.filter((chat) => !bound.has(chat));
  const found: Finding[] = [];
  if (unbound.length)
    found.push(problem(CHECK, say('feishu.chats-unbound', { chats: unbound.join(', ') }), fix));
  else if (!bound.size) found.push(problem(CHECK, say('feishu.no-chat-bound'), fix));
  else found.push(ok(CHECK, say('feishu.chats-bound', { count: bound.size })));
  return found;
}
