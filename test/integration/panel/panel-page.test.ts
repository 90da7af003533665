import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  beforeAll(async () => {
    app = await startTestApp({ ADMIN_TOKEN: 'panel-page-admin-token' }, { workers: false });
  });
  afterAll(() => app.close());

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
