import type { TriggerCard } from '../cards/card.ts';
import { replyEffectFor } from '../cards/reply-effect.ts';
import type { Ctx } from '../context.ts';
import { languageForCard } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';
import { boundRepos } from './chat-bound-repos.ts';
import { isRepoName, setChatRepo } from './chat-repos.ts';
import { maySteer } from './may-steer.ts';
import { isSettingsAdmin } from './settings-admins.ts';

/** `/repo` with its argument, if any (`''`: show the current one). */
export interface RepoCommand {
  chat: string;
  arg: string;
}

export type RepoCommandResult = 'set' | 'shown' | 'invalid' | 'refused';

const MAX_COMMAND_CHARS = 300;

/**
 * `/repo owner/name` (issue 16) as the whole chat message, mentions aside: binds the repository
 * to the chat as its default (issue 31: a chat works only in its bound repositories); `/repo`
 * alone says which they are. Only in chats (Feishu, the panel's local chat): a GitHub
 * conversation has its repository already.
 */
export function repoCommandOf(card: TriggerCard): RepoCommand | undefined {
  if (card.kind !== 'message' || card.origin.source === 'github') return undefined;
  // Bots get no answer (R-A2): their text is routed, and ignored, like any bot's.
  if (card.author.type !== 'person') return undefined;
  if (card.text.length > MAX_COMMAND_CHARS) return undefined;
  const words = card.text
    .replace(/@[\w.\-[\]]+/g, ' ')
    .trim()
    .split(/\s+/);
  if (words[0]?.toLowerCase() !== '/repo' || words.length > 2) return undefined;
  return { chat: card.origin.chatId, arg: words[1] ?? '' };
}

/**
 * Applies `/repo`: binding is for settings admins (issue 31, `isSettingsAdmin`; the panel's local
 * chat is the operator's), showing for anyone who may steer work in this chat (R-A5, `maySteer`);
 * anyone else is refused in one sentence, naming who can bind, and nothing changes. The answer
 * goes out through the outbox, once per card.
 */
export async function applyRepoCommand(
  ctx: Ctx,
  card: TriggerCard,
  cmd: RepoCommand,
): Promise<RepoCommandResult> {
  const result = await decide(ctx, card, cmd);
  const lang = await languageForCard(ctx, card);
  const bound = await boundRepos(ctx, cmd.chat);
  const text =
    result === 'refused'
      ? hostText(lang, 'chat-repo.refused')
      : result === 'invalid'
        ? hostText(lang, 'chat-repo.invalid')
        : result === 'set'
          ? hostText(lang, 'chat-repo.set', { repo: cmd.arg })
          : bound.length
            ? hostText(lang, 'chat-repo.shown', { repos: bound.join(', ') })
            : hostText(lang, 'chat-repo.none');
  const effect = replyEffectFor(card, text);
  if (effect) await enqueueEffect(ctx, { key: `repo-command:${card.id}`, effect, exemptFromPause: true });
  return result;
}

async function decide(ctx: Ctx, card: TriggerCard, cmd: RepoCommand): Promise<RepoCommandResult> {
  if (!maySteer(card, ctx.config)) return 'refused';
  if (!cmd.arg) return 'shown';
  if (!isSettingsAdmin(card, ctx.config)) return 'refused';
  if (!isRepoName(cmd.arg)) return 'invalid';
  await setChatRepo(ctx, cmd.chat, cmd.arg);
  ctx.log.info({ chat: cmd.chat, repo: cmd.arg, by: card.author.id }, 'chat repository bound');
  return 'set';
}
