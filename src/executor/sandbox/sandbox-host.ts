import { type CgroupRoot, findCgroupRoot } from './cgroup-limits.ts';

/** How this host enforces the memory and process caps: cgroups when writable, else rlimits. */
export interface SandboxHost {
  cgroup?: CgroupRoot;
  limits: 'cgroup-v2' | 'cgroup-v1' | 'rlimit';
}

let host: Promise<SandboxHost> | undefined;

/** Looked up once per process: cgroup delegation is set up at most once (R-H3). */
export function sandboxHost(): Promise<SandboxHost> {
  host ??= findCgroupRoot().then((cgroup) =>
    cgroup ? { cgroup, limits: cgroup.kind === 'v2' ? 'cgroup-v2' : 'cgroup-v1' } : { limits: 'rlimit' },
  );
  return host;
}
