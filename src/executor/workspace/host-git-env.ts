import { isLoopbackUrl } from './git-policy.ts';

/** Proxy settings of the bot's own deployment (the operator's, never the checkout's) pass through. */
const PASSED = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'];

/**
 * Config that neutralises anything which could run a program or send the token elsewhere, given
 * on the command line's level (it beats every file). The mirror's own config is the host's, and
 * global and system config are off; this is the second wall (issue 13, R-H4).
 */
export const GIT_HARDENING: [string, string][] = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.sshCommand', 'false'],
  ['core.askPass', ''],
  ['core.alternateRefsCommand', ''],
  ['credential.helper', ''],
  ['protocol.ext.allow', 'never'],
  ['http.followRedirects', 'false'],
  ['submodule.recurse', 'false'],
  ['fetch.recurseSubmodules', 'false'],
  ['push.recurseSubmodules', 'no'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  // Issue 31: verifying a signature runs a program, and a planted `log.showSignature` plus a
  // `mergetag` in a commit made `git log` run a relative `gpg.program` from the checkout.
  ['log.showSignature', 'false'],
  ['gpg.program', '/bin/false'],
  ['gpg.openpgp.program', '/bin/false'],
  ['gpg.x509.program', '/bin/false'],
  ['gpg.ssh.program', '/bin/false'],
  ['gpg.ssh.defaultKeyCommand', '/bin/false'],
  // An empty external diff fails closed ("cannot run"); no pager outside a terminal either.
  ['diff.external', ''],
  ['core.pager', 'cat'],
];

export interface HostGitOptions {
  /** An empty, host-owned directory: no `.gitconfig`, `.netrc` or `.config/git` a command wrote. */
  home: string;
  /** `GIT_ALLOW_PROTOCOL` (`gitProtocols`, or `file` alone for the host's local transfers). */
  protocols: readonly string[];
  /** Sends `token` to `url`'s origin only, as an HTTP header (never in a URL or a file). */
  auth?: { url: string; token: string | undefined };
  /** Further `-c`-level settings for this run. */
  config?: [string, string][];
  source?: NodeJS.ProcessEnv;
}

/**
 * The whole environment of a git process the host runs in its mirror (issue 13 "Git with
 * credentials is the host's alone"): built from nothing, no config but the repository's own and
 * the overrides here, no prompts, and the protocol allow-list.
 */
export function hostGitEnv(o: HostGitOptions): Record<string, string> {
  const source = o.source ?? process.env;
  const env: Record<string, string> = {};
  for (const name of PASSED) {
    const v = source[name];
    if (v !== undefined) env[name] = v;
  }
  const pairs = [...GIT_HARDENING, ...(o.config ?? []), ...gitAuthConfig(o.auth?.url, o.auth?.token)];
  Object.assign(env, {
    HOME: o.home,
    XDG_CONFIG_HOME: o.home,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: o.protocols.join(':'),
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_CONFIG_COUNT: String(pairs.length),
  });
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

/**
 * The git setting, for the host's own network git only, that sends the token to the repository's
 * host: never written into the remote URL or any file on disk, never in a command the model runs,
 * never sent to another origin (a submodule or a redirect elsewhere). Plain http only to loopback
 * (a test's fake); `file://` needs none.
 */
export function gitAuthConfig(url: string | undefined, token: string | undefined): [string, string][] {
  if (!url || !token) return [];
  const https = /^https:\/\//i.test(url);
  if (!https && !(/^http:\/\//i.test(url) && isLoopbackUrl(url))) return [];
  const origin = new URL(url).origin;
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return [[`http.${origin}/.extraheader`, `AUTHORIZATION: basic ${basic}`]];
}
