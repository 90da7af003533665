import type { Config } from '../../config.ts';
import type { SandboxUser } from './sandbox-user.ts';

/** How repository code runs (R-H3), from `SANDBOX*` configuration. */
export interface SandboxSettings {
  mode: 'bwrap' | 'none';
  network: 'none' | 'egress';
  memoryMb: number;
  pids: number;
  /** Cap on the checkout's disk use. */
  diskMb: number;
  /** Cap on the checkout's files, folders and links (issue 45); `diskInodes` derives it when left out. */
  inodes?: number;
  /** Size of the private `/tmp` and of HOME, each. */
  tmpMb: number;
  /**
   * The host uid commands run as (issue 45), where the probe found it works; without it they run
   * as the bot's own. `runOnCheckout` sets it from `probeSandbox`.
   */
  user?: SandboxUser;
}

export type SandboxConfig = Pick<
  Config,
  | 'SANDBOX'
  | 'SANDBOX_NETWORK'
  | 'SANDBOX_MEMORY_MB'
  | 'SANDBOX_PIDS'
  | 'SANDBOX_DISK_MB'
  | 'SANDBOX_DISK_INODES'
  | 'SANDBOX_TMP_MB'
> &
  /** Left out (a test's or a tool's own settings): commands keep the bot's uid. */
  Partial<Pick<Config, 'SANDBOX_UID' | 'WORKSPACE_DIR'>>;

export function sandboxSettings(c: SandboxConfig): SandboxSettings {
  return {
    mode: c.SANDBOX,
    network: c.SANDBOX_NETWORK,
    memoryMb: c.SANDBOX_MEMORY_MB,
    pids: c.SANDBOX_PIDS,
    diskMb: c.SANDBOX_DISK_MB,
    ...(c.SANDBOX_DISK_INODES ? { inodes: c.SANDBOX_DISK_INODES } : {}),
    tmpMb: c.SANDBOX_TMP_MB,
  };
}

/**
 * The checkout's inode cap (issue 45: a million empty files took no space `du` could see): the
 * setting, else one inode per 16 KiB of the disk cap (327,680 for the default 5 GB).
 */
export function diskInodes(s: Pick<SandboxSettings, 'diskMb' | 'inodes'>): number {
  return s.inodes ?? s.diskMb * 64;
}
