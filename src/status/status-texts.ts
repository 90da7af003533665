import { isHostTextKey } from '../i18n/host-keys.ts';
import { hostText } from '../i18n/host-text.ts';
import type { Lang } from '../i18n/lang.ts';
import type { StatusState } from './status-model.ts';

/**
 * Card and comment texts are notices: they are not editable prompts (R-E1). Their words live in
 * the host catalogs (`prompts/host/<lang>.md`, issue 16); emoji and colours are code.
 */
export const STATE_EMOJI: Record<StatusState, string> = {
  working: '🔄',
  waiting: '❓',
  paused: '⏸️',
  blocked: '⛔',
  done: '✅',
};

/** Feishu header colour per state. */
export const STATE_TEMPLATE: Record<StatusState, string> = {
  working: 'blue',
  waiting: 'orange',
  paused: 'grey',
  blocked: 'red',
  done: 'green',
};

export const stateLabel = (lang: Lang, state: StatusState): string => hostText(lang, `status.state.${state}`);

/**
 * The current step in a few words (`editing files`): the step is stored as the tool's name; a tool
 * without words of its own reads as its name, and a step stored as words before issue 16 as itself.
 */
export function stepText(lang: Lang, step: string): string {
  const key = `status.step.${step.replace(/_/g, '-')}`;
  return isHostTextKey(key) ? hostText(lang, key) : step.replace(/_/g, ' ');
}

/** `4 min`, `1 h 5 min`, `2 d 3 h`: minutes are enough, so a re-render within a minute is identical. */
export function formatElapsed(lang: Lang, ms: number): string {
  const min = Math.floor(Math.max(0, ms) / 60_000);
  if (min < 1) return hostText(lang, 'status.elapsed.under-minute');
  if (min < 60) return hostText(lang, 'status.elapsed.minutes', { min });
  const h = Math.floor(min / 60);
  if (h < 24) return hostText(lang, 'status.elapsed.hours', { h, min: min % 60 });
  return hostText(lang, 'status.elapsed.days', { d: Math.floor(h / 24), h: h % 24 });
}

export function formatUsage(lang: Lang, u: { modelRequests: number; tokens: number }): string {
  const tokens = u.tokens.toLocaleString('en-US');
  return u.modelRequests === 1
    ? hostText(lang, 'status.usage.one', { tokens })
    : hostText(lang, 'status.usage.other', { requests: u.modelRequests, tokens });
}
