import type { TestApp } from '../../kit/app.ts';

export const TOKEN = 'panel-test-admin-token-0123456789abcdef';

/** The API as an outside client sees it, with the bearer token (the browser uses its cookie). */
export async function api(
  app: TestApp,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answered
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
