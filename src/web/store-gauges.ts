import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Gauge } from 'prom-client';
import type { Ctx } from '../context.ts';
import { workspacePaths } from '../executor/workspace/workspace.ts';

/** A workspace walk is costly on big checkouts: one result serves scrapes for this long. */
const DISK_CACHE_MS = 60_000;

/**
 * Gauges for what grows (issue 14 "lifecycle"): Redis's used memory (Redis runs `noeviction`, so
 * a full Redis refuses writes) and the bytes under this deployment's workspace root. Read when
 * Prometheus scrapes; registered once per registry.
 */
export function registerStoreGauges(ctx: Ctx): void {
  const registry = ctx.metrics.registry;
  if (registry.getSingleMetric('switchyard_redis_used_memory_bytes')) return;
  new Gauge({
    name: 'switchyard_redis_used_memory_bytes',
    help: 'Redis used_memory (INFO memory)',
    registers: [registry],
    async collect() {
      const info = await ctx.redis.info('memory').catch(() => '');
      const used = /^used_memory:(\d+)/m.exec(info)?.[1];
      if (used !== undefined) this.set(Number(used));
    },
  });
  const disk = cachedDiskUsage(workspacePaths(ctx, '').root);
  new Gauge({
    name: 'switchyard_workspace_disk_bytes',
    help: "Bytes of files under this deployment's workspace root (checkouts and command homes)",
    registers: [registry],
    async collect() {
      this.set(await disk());
    },
  });
}

function cachedDiskUsage(root: string): () => Promise<number> {
  let last: { at: number; bytes: number } | undefined;
  return async () => {
    if (!last || Date.now() - last.at > DISK_CACHE_MS)
      last = { at: Date.now(), bytes: await diskUsage(root) };
    return last.bytes;
  };
}

/** Bytes of regular files under `dir`, symlinks not followed; a missing directory is 0. */
export async function diskUsage(dir: string): Promise<number> {
  let total = 0;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop() as string;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile()) total += (await lstat(path).catch(() => ({ size: 0 }))).size;
    }
  }
  return total;
}
