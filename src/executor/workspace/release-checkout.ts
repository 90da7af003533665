import { rm } from 'node:fs/promises';
import type { Ctx } from '../../context.ts';
import { writeStepMarker } from './step-marker.ts';
import { workspacePaths } from './workspace.ts';

/**
 * Deletes a ticket's checkout and command home from this machine's disk (issue 14 "lifecycle").
 * The record in Redis stays: a later turn (a reopened ticket) clones again and checks out the
 * pushed branch, as on any other machine.
 */
export async function releaseCheckout(ctx: Pick<Ctx, 'config' | 'keys'>, ticketId: string): Promise<void> {
  const paths = workspacePaths(ctx, ticketId);
  await rm(paths.dir, { recursive: true, force: true });
  await rm(paths.home, { recursive: true, force: true });
  await writeStepMarker(ctx, ticketId, undefined);
}
