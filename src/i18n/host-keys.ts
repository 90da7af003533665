/**
 * Every host text's key (issue 16). The texts themselves live in `prompts/host/<lang>.md`; a test
 * keeps each catalog's keys equal to this list and their placeholders equal across languages.
 */
export const HOST_TEXT_KEYS = [
  'command.nothing-to-pause',
  'command.nothing-to-resume',
  'command.paused',
  'command.already-paused',
  'command.resumed',
  'command.not-paused',
  'refusal.not-allowed',
  'refusal.settings',
  'breaker.messages',
  'breaker.model-requests',
  'stall.notice',
  'span.minutes',
  'span.seconds',
  'stopped.budget',
  'stopped.model',
] as const;

export type HostTextKey = (typeof HOST_TEXT_KEYS)[number];
