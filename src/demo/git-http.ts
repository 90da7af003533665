/**
 * Git over smart HTTP for a loopback GitHub: the demo's (`npm run demo`, `local-github.ts`) and the
 * test kit's fake, through the real `git http-backend`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostedSpawn } from '../executor/spawn-host/hosted-spawn.ts';

/** What a git request asks for: reading (upload-pack) or writing (receive-pack). */
export type GitAccess = 'read' | 'write';

/** The fake's verdict on a git request's credentials, as GitHub answers them. */
export type GitAuthVerdict = 'ok' | 'missing' | 'no-repo' | 'denied';

export interface GitRoute {
  /** `owner/name` from `/git/<owner>/<name>.git/...`. */
  repo: string;
  /** The path after `<name>.git` (`/info/refs`, `/git-upload-pack`, `/git-receive-pack`). */
  rest: string;
  access: GitAccess;
}

/** Parses `/git/<owner>/<name>.git/<rest>?service=…` (the fake's clone URLs). */
export function gitRoute(pathname: string, query: URLSearchParams): GitRoute | undefined {
  const m = /^\/git\/([^/]+\/[^/]+?)\.git(\/.*)$/.exec(pathname);
  if (!m?.[1] || !m[2]) return undefined;
  const service = query.get('service') ?? m[2].slice(1);
  return { repo: m[1], rest: m[2], access: service === 'git-receive-pack' ? 'write' : 'read' };
}

/** The token in `Authorization: Basic base64(x-access-token:<token>)` (any user name, as GitHub). */
export function basicToken(auth: string | undefined): string | undefined {
  const m = /^basic\s+(\S+)$/i.exec(auth ?? '');
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? undefined : decoded.slice(i + 1);
}

const REFUSALS: Record<Exclude<GitAuthVerdict, 'ok'>, { status: number; text: string }> = {
  missing: { status: 401, text: 'Invalid username or token. Password authentication is not supported.\n' },
  'no-repo': { status: 404, text: 'Repository not found.\n' },
  denied: { status: 403, text: 'Permission denied.\n' },
};

/**
 * Serves one git smart-HTTP request with the real `git http-backend` (CGI) over the bare
 * repository `dir`, after the fake decided the credentials: 401 with a Basic challenge when they
 * are missing or bad, 404 when the token does not reach the repository, 403 when it may only read.
 * Returns the HTTP status sent.
 */
export async function serveGit(
  req: IncomingMessage,
  res: ServerResponse,
  route: GitRoute,
  dir: string,
  verdict: GitAuthVerdict,
  query: string,
): Promise<number> {
  if (verdict !== 'ok') {
    const r = REFUSALS[verdict];
    res.writeHead(r.status, {
      'content-type': 'text/plain',
      ...(verdict === 'missing' ? { 'www-authenticate': 'Basic realm="GitHub"' } : {}),
    });
    res.end(r.text);
    return r.status;
  }
  const child = hostedSpawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH ?? '',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_PROJECT_ROOT: dir,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: route.rest,
      QUERY_STRING: query,
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: 'x-access-token',
      REMOTE_ADDR: '127.0.0.1',
      ...(req.headers['content-encoding']
        ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) }
        : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  // It could not start, or the spawn host that started it was lost: GitHub's answer to a failing backend.
  let failed: Error | undefined;
  child.on('error', (err: Error) => {
    failed = err;
  });
  if (child.stdin) req.pipe(child.stdin);
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (b: Buffer) => chunks.push(b));
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  if (failed) {
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`git http-backend failed: ${failed.message}\n`);
    return 502;
  }
  const out = Buffer.concat(chunks);
  const sep = out.indexOf('\r\n\r\n') >= 0 ? out.indexOf('\r\n\r\n') : out.indexOf('\n\n');
  const headerText = out.subarray(0, Math.max(sep, 0)).toString('utf8');
  const body = out.subarray(sep < 0 ? 0 : sep + (out[sep] === 13 ? 4 : 2));
  const headers: Record<string, string> = {};
  let status = 200;
  for (const line of headerText.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i < 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    if (name === 'status') status = Number.parseInt(value, 10) || 200;
    else headers[name] = value;
  }
  res.writeHead(status, headers);
  res.end(body);
  return status;
}
