import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { Ctx } from '../../../context.ts';
import { boardActionPolicy } from './board-actions.ts';
import { boardGuard } from './board-guard.ts';
import { boardPageHeaders } from './board-page.ts';

/** Where bull-board is mounted: behind the panel's sign-in, linked from its Queues page. */
export const BOARD_PATH = '/panel/queues/board';

/**
 * bull-board reads `allowCompletedRetries` (its UI then offers no retry on a completed job), though
 * its option type lags behind; a variable, not a literal, passes it.
 */
const ADAPTER_OPTIONS = { allowRetries: true, allowCompletedRetries: false };

/**
 * bull-board (issue 17) over every queue of the deployment (`ctx.queues`, under its `KEY_PREFIX`),
 * so failed jobs can be read, retried and cleaned. Guarded by `boardGuard`; actions that would
 * bypass the product's own checks are refused by `boardActionPolicy`. Completed jobs are never
 * offered for retry.
 */
export function queueBoardRoutes(ctx: Ctx): (app: Hono) => void {
  return (app) => {
    const adapter = new HonoAdapter(serveStatic).setBasePath(BOARD_PATH);
    createBullBoard({
      queues: Object.values(ctx.queues).map((q) => new BullMQAdapter(q, ADAPTER_OPTIONS)),
      serverAdapter: adapter,
      options: {
        uiConfig: {
          boardTitle: 'Switchyard queues',
          hideDocsLink: true,
          // Its button's logo is an inline <style> (refused by BOARD_CSP), and Redis's version and
          // memory are no business of a queue view.
          hideRedisDetails: true,
          miscLinks: [{ text: 'Back to the panel', url: '/panel/#/queues' }],
        },
        handlerHooks: { before: boardActionPolicy },
      },
    });
    const board = new Hono();
    board.use('*', boardPageHeaders());
    board.use('*', boardGuard(ctx, BOARD_PATH));
    board.route('/', adapter.registerPlugin());
    app.route(BOARD_PATH, board);
  };
}
