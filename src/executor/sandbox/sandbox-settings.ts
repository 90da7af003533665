import type { Config } from '../../config.ts';

/** How repository code runs (R-H3), from `SANDBOX*` configuration. */
export interface SandboxSettings {
  mode: 'bwrap' | 'none';
  network: 'none' | 'egress';
  memoryMb: number;
  pids: number;
  /** Cap on the checkout's disk use. */
  diskMb: number;
  /** Size of the private `/tmp` and of HOME, each. */
  tmpMb: number;
}

export type SandboxConfig = Pick<
  Config,
  'SANDBOX' | 'SANDBOX_NETWORK' | 'SANDBOX_MEMORY_MB' | 'SANDBOX_PIDS' | 'SANDBOX_DISK_MB' | 'SANDBOX_TMP_MB'
>;

export function sandboxSettings(c: SandboxConfig): SandboxSettings {
  return {
    mode: c.SANDBOX,
    network: c.SANDBOX_NETWORK,
    memoryMb: c.SANDBOX_MEMORY_MB,
    pids: c.SANDBOX_PIDS,
    diskMb: c.SANDBOX_DISK_MB,
    tmpMb: c.SANDBOX_TMP_MB,
  };
}
