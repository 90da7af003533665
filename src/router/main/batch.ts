import type { TriggerCard } from '../../cards/card.ts';
import type { NoticeRef, ReportNotice } from '../follow-up-notices.ts';

/** The candidates one main-session turn decides, and what it decided so far. */
export interface MainBatch {
  turnId: string;
  cards: Map<string, TriggerCard>;
  /** Hand-back reasons by card, by ticket (R-C3). */
  reasons: Map<string, Record<string, string>>;
  decided: Map<string, string>;
  /** Follow-up notices by ticket: cards that attached to it by code since the last turn (R-B6). */
  notices: Map<string, NoticeRef[]>;
  /** Executors' reports since the last turn (issue 30): news, nothing to decide. Absent: none. */
  reports?: ReportNotice[];
}
