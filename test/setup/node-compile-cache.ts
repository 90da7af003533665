import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Node's compile cache for the run (`NODE_COMPILE_CACHE`, kept when already set): the workers,
 * and the many node processes the tests start that each load the product, compile each module
 * once rather than once per process.
 */
export function setup(): void {
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'switchyard-node-compile-cache');
}
