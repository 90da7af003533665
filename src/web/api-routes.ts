import type { Ctx } from '../context.ts';
import type { ApiRoutes } from './app.ts';

/** Every `/api` route module of the product. */
export function apiRoutes(_ctx: Ctx): ApiRoutes[] {
  return [];
}
