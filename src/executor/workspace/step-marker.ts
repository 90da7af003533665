import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ctx } from '../../context.ts';
import { mirrorRoot } from './mirror.ts';
import { mkdirPrivate } from './private-dir.ts';

type MarkerCtx = Pick<Ctx, 'config' | 'keys'>;

/**
 * Which recorded workspace step this machine's checkout of a ticket is at (issue 19), kept beside
 * the host's mirrors where no command can write it. A checkout whose marker differs from the
 * stored step's id was left behind by another worker's progress and is restored.
 */
const markerPath = (ctx: MarkerCtx, ticketId: string) => join(mirrorRoot(ctx).root, '.steps', ticketId);

export async function readStepMarker(ctx: MarkerCtx, ticketId: string): Promise<string | undefined> {
  const got = await readFile(markerPath(ctx, ticketId), 'utf8').catch(() => '');
  return got.trim() || undefined;
}

export async function writeStepMarker(ctx: MarkerCtx, ticketId: string, id: string | undefined) {
  const path = markerPath(ctx, ticketId);
  if (!id) return rm(path, { force: true });
  await mkdirPrivate(join(mirrorRoot(ctx).root, '.steps'));
  await writeFile(path, id);
}
