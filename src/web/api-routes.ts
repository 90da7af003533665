import type { Ctx } from '../context.ts';
import type { Runtime } from '../runtime.ts';
import { budgetRoutes } from './api/budget-routes.ts';
import { cardsRoutes } from './api/cards-routes.ts';
import { chatLanguagesRoutes } from './api/chat-languages-routes.ts';
import { chatReposRoutes } from './api/chat-repos-routes.ts';
import { deliveryRetryRoutes } from './api/delivery-retry-routes.ts';
import { evalAbRoutes } from './api/eval-ab-routes.ts';
import { evalRoutes } from './api/eval-routes.ts';
import { eventsRoutes } from './api/events-routes.ts';
import { homeRoutes } from './api/home-routes.ts';
import { localChatRoutes } from './api/local-chat-routes.ts';
import { policyRoutes } from './api/policy-routes.ts';
import { promptsRoutes } from './api/prompts-routes.ts';
import { queuesRoutes } from './api/queues-routes.ts';
import { statsRoutes } from './api/stats-routes.ts';
import { ticketPauseRoutes } from './api/ticket-pause-routes.ts';
import { ticketsRoutes } from './api/tickets-routes.ts';
import type { ApiRoutes } from './app.ts';

/** Every `/api` route module of the product; `rt` carries the built-in prompt texts (loaded once). */
export function apiRoutes(ctx: Ctx, rt: Runtime): ApiRoutes[] {
  return [
    promptsRoutes(rt.prompts),
    policyRoutes(rt.prompts),
    ticketsRoutes(ctx),
    ticketPauseRoutes(ctx),
    budgetRoutes(ctx),
    deliveryRetryRoutes(ctx),
    cardsRoutes(ctx),
    localChatRoutes(ctx),
    queuesRoutes(ctx),
    chatReposRoutes(ctx),
    chatLanguagesRoutes(ctx),
    statsRoutes(ctx),
    eventsRoutes(ctx),
    homeRoutes(ctx, rt),
    evalRoutes(ctx),
    evalAbRoutes(ctx, rt.prompts),
  ];
}
