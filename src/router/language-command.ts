import type { TriggerCard } from '../cards/card.ts';
import { replyEffectFor } from '../cards/reply-effect.ts';
import type { Ctx } from '../context.ts';
import { chatOf, setChatLanguage } from '../i18n/chat-language-store.ts';
import { languageOfText } from '../i18n/detect-language.ts';
import { hostText } from '../i18n/host-text.ts';
import type { Lang } from '../i18n/lang.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';
import { writtenText } from './command.ts';

/** A chat's language fixed to one, or `auto`: each answer in the language of its message. */
export type LanguageChoice = Lang | 'auto';

const COMMANDS = new Set(['/lang', '/language', '/语言']);
const CHOICES = new Map<string, LanguageChoice>([
  ['en', 'en'],
  ['english', 'en'],
  ['英文', 'en'],
  ['英语', 'en'],
  ['zh', 'zh-CN'],
  ['zh-cn', 'zh-CN'],
  ['chinese', 'zh-CN'],
  ['中文', 'zh-CN'],
  ['汉语', 'zh-CN'],
  ['auto', 'auto'],
  ['自动', 'auto'],
]);
const MAX_COMMAND_CHARS = 100;

/**
 * Issue 16: `/lang zh`, `/lang en` or `/lang auto` (also `/language`, `/语言 中文`) as the whole
 * message, mentions aside, fixes the chat's language or lets each message decide again.
 */
export function languageCommandOf(card: TriggerCard): LanguageChoice | undefined {
  if (!writtenText(card)) return undefined;
  if (card.text.length > MAX_COMMAND_CHARS) return undefined;
  const words = card.text
    .split(/\s+/)
    .filter((w) => w && !w.startsWith('@'))
    .map((w) => w.toLowerCase());
  if (words.length !== 2 || !COMMANDS.has(words[0] as string)) return undefined;
  return CHOICES.get(words[1] as string);
}

/** Fixes (or frees) the chat's language and confirms in one sentence, in the language now in force. */
export async function applyLanguageCommand(
  ctx: Ctx,
  card: TriggerCard,
  choice: LanguageChoice,
): Promise<void> {
  await setChatLanguage(ctx, chatOf(card.origin), choice === 'auto' ? undefined : choice);
  const lang = choice === 'auto' ? languageOfText(card.text) : choice;
  const text = hostText(lang, choice === 'auto' ? 'language.auto' : 'language.fixed');
  const effect = replyEffectFor(card, text);
  if (effect) await enqueueEffect(ctx, { key: `language:${card.id}`, effect, exemptFromPause: true });
}
