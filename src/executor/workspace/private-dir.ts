import { mkdir } from 'node:fs/promises';

/**
 * The mode of every folder the workspace code makes (issue 45): checkouts and mirrors hold
 * private repositories, and a checkout holds whatever a command left there, so no other local
 * user may list, read or run anything below `WORKSPACE_DIR`.
 */
export const PRIVATE_MODE = 0o700;

/** `mkdir -p` with every folder it makes closed to other users. */
export async function mkdirPrivate(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_MODE });
}
