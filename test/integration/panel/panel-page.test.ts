import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASSETS_DIR } from '../../../src/web/panel/static-assets.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * The panel page escapes team text (issue 6): it builds markup only from elements and text nodes,
 * and its Content-Security-Policy refuses inline script, so a `<script>` in an override stays
 * text. The browser test shows the same on screen.
 */
describe('panel page: static assets and escaping', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp({ ADMIN_TOKEN: 'panel-page-admin-token-0123456789abcdef' }, { workers: false });
  });
  afterEach(() => app.close());

  it('serves the page at /panel with a CSP that allows no inline script', async () => {
    const res = await fetch(`${app.url}/panel/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<form method="post" action="/panel/sign-in">');
    expect((await fetch(`${app.url}/panel`, { redirect: 'manual' })).headers.get('location')).toBe('/panel/');
  });

  it('serves assets with their types and nothing outside the assets directory', async () => {
    const js = await fetch(`${app.url}/panel/assets/js/main.js`);
    expect(js.headers.get('content-type')).toMatch(/text\/javascript/);
    for (const path of ['../panel-routes.ts', '..%2fpanel-routes.ts', '%2e%2e/%2e%2e/config.ts', 'nope.js']) {
      expect((await fetch(`${app.url}/panel/assets/${path}`)).status, path).toBe(404);
    }
  });

  it('a reload revalidates each file by its tag: 304 with no body while it is unchanged, the file when the tag differs', async () => {
    const url = `${app.url}/panel/assets/js/main.js`;
    const first = await fetch(url);
    const body = await first.text();
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(body).toBe(await readFile(join(ASSETS_DIR, 'js/main.js'), 'utf8'));
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await fetch(url, { headers: { 'if-none-match': tag } });
      expect(again.status, tag).toBe(304);
      expect(await again.text(), tag).toBe('');
      expect(again.headers.get('etag'), tag).toBe(etag);
      expect(again.headers.get('content-security-policy'), tag).toMatch(/script-src 'self'/);
    }
    for (const tag of ['"other"', `${etag.slice(0, -2)}"`, `${etag}x`, '']) {
      const changed = await fetch(url, { headers: { 'if-none-match': tag } });
      expect(changed.status, tag).toBe(200);
      expect(await changed.text(), tag).toBe(body);
    }
    // Each file has a tag of its own: the page's is not the script's.
    const page = await fetch(`${app.url}/panel/`, { headers: { 'if-none-match': etag } });
    expect(page.status).toBe(200);
    expect(page.headers.get('etag')).not.toBe(etag);
  });

  it('the preview assembles a draft in R-E7 order with its section boundaries, and names what a save would refuse', async () => {
    const preview = async (body: unknown) => {
      const res = await fetch(`${app.url}/panel/api/preview`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer panel-page-admin-token-0123456789abcdef',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as {
        main: { label: string | null; text: string }[];
        executor: { label: string | null; text: string }[];
        problems: { key: string; code: string }[];
      };
    };
    const draft = await preview({
      baseRevision: 0,
      team: { about: 'We build the Acme shop.' },
      overrides: { dispatch: { text: 'Draft dispatch text.' } },
      skills: [],
    });
    const labels = draft.main.map((p) => p.label);
    expect(labels).toEqual([
      'shared',
      'role/main',
      'team paragraphs',
      'subscription',
      'dispatch',
      'runtime/admission',
      'handoff',
      'runtime/environment',
      'runtime/policy',
    ]);
    expect(draft.main.find((p) => p.label === 'dispatch')?.text).toBe('Draft dispatch text.');
    expect(draft.main.find((p) => p.label === 'team paragraphs')?.text).toContain('We build the Acme shop.');
    expect(draft.executor.map((p) => p.label)).not.toContain('runtime/policy');
    expect(draft.executor.map((p) => p.label)).toContain('work');
    expect(draft.problems).toEqual([]);
    const broken = await preview({ overrides: { 'runtime/policy': { text: 'no placeholders' } } });
    expect(broken.problems.map((p) => p.code)).toContain('missing_placeholder');
  });

  it('signing out drops the cookie', async () => {
    const res = await fetch(`${app.url}/panel/sign-out`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/^sy_panel=;.*Max-Age=0/);
  });

  it('no script of the page turns strings into markup (innerHTML, outerHTML, insertAdjacentHTML, document.write)', async () => {
    const scripts = (await filesUnder(ASSETS_DIR)).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(5);
    for (const file of scripts) {
      const source = await readFile(file, 'utf8');
      expect(source, file).not.toMatch(
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|new Function|eval\(/,
      );
    }
  });
});
