import { baseline } from './0001-baseline.ts';
import { conversationIndex } from './0002-conversation-index.ts';
import { mainSessionExpiry } from './0003-main-session-expiry.ts';
import { invalidTicketPrs } from './0004-invalid-ticket-prs.ts';
import type { Migration } from './migration.ts';

/**
 * Every schema step, oldest first (issue 20). Add a step as the next file (`0002-….ts`) with the
 * next version, append it here, and test it on data written in the previous shape. Never edit or
 * reorder a step that has shipped: stores out there already ran it.
 */
export const MIGRATIONS: readonly Migration[] = [
  baseline,
  conversationIndex,
  mainSessionExpiry,
  invalidTicketPrs,
];
