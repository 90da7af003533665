import type { TriggerCard } from '../cards/card.ts';
import { replyEffectFor } from '../cards/reply-effect.ts';
import type { Config } from '../config.ts';
import type { Ctx } from '../context.ts';
import { languageForCard } from '../i18n/choose-language.ts';
import { hostText } from '../i18n/host-text.ts';
import { enqueueEffect } from '../outbox/enqueue.ts';
import { entriesOf } from '../safety/channel-entries.ts';

/**
 * R-H5: may this card's author change the prompt settings by asking the bot? Only people named in
 * `SETTINGS_ADMINS` for the card's channel (a GitHub login case-insensitively, or its numeric id);
 * the panel's local chat is the admin's own. Everyone else uses the panel, behind `ADMIN_TOKEN`.
 */
export function isSettingsAdmin(card: TriggerCard, config: Pick<Config, 'SETTINGS_ADMINS'>): boolean {
  if (card.author.type !== 'person') return false;
  switch (card.origin.source) {
    case 'local':
      return true;
    case 'feishu':
      return entriesOf(config.SETTINGS_ADMINS, 'feishu').includes(card.author.id);
    case 'github': {
      const listed = entriesOf(config.SETTINGS_ADMINS, 'github');
      const { id, numericId } = card.author;
      return (
        listed.includes(id.toLowerCase()) || (numericId !== undefined && listed.includes(String(numericId)))
      );
    }
  }
}

/** One polite sentence to the person who asked, pointing to the panel (sent once per card). */
export async function refuseSettingsByMessage(ctx: Ctx, card: TriggerCard): Promise<void> {
  const lang = await languageForCard(ctx, card);
  const effect = replyEffectFor(card, hostText(lang, 'refusal.settings'));
  if (effect) await enqueueEffect(ctx, { key: `settings-refuse:${card.id}`, effect, exemptFromPause: true });
}
