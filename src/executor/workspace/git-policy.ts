import type { Config } from '../../config.ts';

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])$/i;

/** Whether a URL names this machine's loopback (a test's or a developer's local fake). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * The transports the host's network git may use (issue 13, R-H4): `https` only. A deployment
 * whose GitHub API is a local fake on loopback (tests, CONTRACT "a test can hand them a local
 * repository") also allows `http` to loopback and `file`. No setting widens it: the one switch is
 * the API URL itself, and a real GitHub is never on 127.0.0.1.
 */
export function gitProtocols(config: Pick<Config, 'GITHUB_API_URL'>): readonly string[] {
  return isLoopbackUrl(config.GITHUB_API_URL) ? ['https', 'http', 'file'] : ['https'];
}

/** Why the host refuses to clone or push `url` under `protocols`, or undefined. */
export function cloneUrlProblem(url: string, protocols: readonly string[]): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `clone_url "${url}" is not a URL (scp-like and ssh addresses are refused)`;
  }
  const scheme = u.protocol.replace(/:$/, '');
  if (!protocols.includes(scheme))
    return `clone_url "${u.origin}" uses ${scheme}, and network git allows only ${protocols.join(', ')} (R-H4)`;
  if (scheme === 'http' && !isLoopbackUrl(url))
    return `clone_url "${u.origin}" is plain http to another machine (R-H4)`;
  if (u.username || u.password) return 'clone_url carries credentials; the host adds its own (R-H4)';
  return undefined;
}
