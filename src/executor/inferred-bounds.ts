import type { Config } from '../config.ts';
import { INFERRED_MAX_REQUESTS } from '../prompts/policy-settings.ts';
import type { AnyTool } from '../session/tool.ts';
import type { Ticket } from '../tickets/ticket.ts';

/**
 * F-12: a ticket nobody asked for (R-B8, opened under policy rules) is bounded in code, not only
 * by its prompt note. Its crew and profile are its rules' (`crewOf`, `policyCaps`); here, its own
 * smaller budget of model requests per turn, and `open_pr` only where a rule names it.
 */

/** Model requests one turn of the ticket may make: an inferred ticket's rules' (widest), never more than `EXECUTOR_MAX_REQUESTS`. */
export function turnRequestCap(config: Pick<Config, 'EXECUTOR_MAX_REQUESTS'>, ticket: Ticket): number {
  const rules = ticket.inferred?.rules;
  if (!rules?.length) return config.EXECUTOR_MAX_REQUESTS;
  const widest = Math.max(...rules.map((r) => r.maxRequests ?? INFERRED_MAX_REQUESTS));
  return Math.min(widest, config.EXECUTOR_MAX_REQUESTS);
}

/** The tools without `open_pr` for an inferred ticket none of whose rules names `openPr`. */
export function withinRules(ticket: Ticket, tools: AnyTool[]): AnyTool[] {
  const rules = ticket.inferred?.rules;
  if (!rules?.length || rules.some((r) => r.openPr)) return tools;
  return tools.filter((t) => t.name !== 'open_pr');
}
