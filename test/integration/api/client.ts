import type { TestApp } from '../../kit/app.ts';

export const TOKEN = 'test-admin-token-0123456789abcdefghij';

export interface ApiAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answered
  body: any;
}

/**
 * One request to the real server's `/api`: the admin bearer token unless `token` says otherwise
 * (`null` for none); a string `body` is sent verbatim (malformed JSON on demand).
 */
export async function call(
  app: TestApp,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const token = opts.token === undefined ? TOKEN : opts.token;
  const headers: Record<string, string> = { ...opts.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  }
  const res = await fetch(`${app.url}/api${path}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
