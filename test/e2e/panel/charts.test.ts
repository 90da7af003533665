import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { seedDepth, seedHistory } from '../../integration/stats/seed-history.ts';
import { startTestApp } from '../../kit/app.ts';
import { startFakeLlm } from '../../kit/fake-llm.ts';
import { TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, signIn } from './browser.ts';

/** The committed picture in the README tour; rewritten only when `UPDATE_DOCS_SCREENSHOTS=1` asks. */
const DOCS_SHOT = join(import.meta.dirname, '..', '..', '..', 'docs', 'panel-charts.png');
const CHARTS = ['tokens', 'cache', 'tickets', 'ack', 'turns', 'depth'];
const DAYS = 14;
const CHART_MODULE = '/panel/assets/js/charts/line-chart.js';

/** As the page shows a number: whole, or with one decimal. */
const shown = (v: number, unit = '') => `${Number.isInteger(v) ? v : v.toFixed(1)}${unit}`;
const secs = (ms: number) => shown(Math.round(ms / 100) / 10, ' s');
const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);

it('issue 17: the charts page draws every chart from a seeded history, with the numbers beside each', {
  timeout: 120_000,
}, async () => {
  const llm = await startFakeLlm();
  const app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
  const browser = await launchChromium();
  const problems: string[] = [];
  try {
    const seeded = await seedHistory(app.ctx, llm, DAYS);
    await seedDepth(app.ctx, 90);
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(err.message));
    await signIn(page, app.url, TOKEN);
    // A blocked script or style (the page's policy is 'self' only) is a console error. (Before
    // signing in, the page's session check answers 401: that one is expected.)
    page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
    await page.goto(`${app.url}/panel/#/charts/30`);
    await page.getByRole('heading', { name: 'Charts', level: 1 }).waitFor();

    // The page's own palette, in series order.
    // (A string, so the test runner does not rewrite the browser's import.)
    const colours: string[] = await page.evaluate(`import('${CHART_MODULE}').then((m) => m.COLORS)`);
    for (const id of CHARTS) {
      const figure = page.locator(`figure[data-chart="${id}"]`);
      // Drawn: the series' colours are on the canvas, not just an empty frame.
      const inked = await figure.locator('canvas').evaluate((c: HTMLCanvasElement, colours: string[]) => {
        const data =
          c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
        const rgb = colours.map((x) => [1, 3, 5].map((i) => Number.parseInt(x.slice(i, i + 2), 16)));
        const counts = rgb.map(() => 0);
        for (let p = 0; p < data.length; p += 4)
          rgb.forEach(([r = 0, g = 0, b = 0], k) => {
            const near =
              Math.abs((data[p] ?? 0) - r) +
              Math.abs((data[p + 1] ?? 0) - g) +
              Math.abs((data[p + 2] ?? 0) - b);
            if (near < 24 && (data[p + 3] ?? 0) > 200) counts[k] = (counts[k] ?? 0) + 1;
          });
        return counts;
      }, colours);
      // The legend names each series, in the palette's order.
      const labels = await figure.locator('.u-legend .u-series .u-label').allTextContents();
      expect(labels.length, id).toBeGreaterThan(0);
      // Every series with data drew pixels of its colour (the seeded depth has two queues moving;
      // the others' lines sit at zero).
      const drawn = labels.filter((_l, k) => (inked[k] ?? 0) > 30);
      expect(drawn, `${id}: ${inked}`).toEqual(id === 'depth' ? ['executor', 'route'] : labels);
    }

    // The numbers beside each chart are the seeded ones, day by day (the last DAYS rows of 30).
    const table = async (id: string) =>
      (
        await page
          .locator(`figure[data-chart="${id}"] .chart-data tbody tr`)
          .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)))
      ).slice(-DAYS);
    expect(await table('tickets')).toEqual(
      seeded.map((d) => [d.tickets.opened, d.tickets.done, d.tickets.blocked].map(String)),
    );
    expect(await table('tokens')).toEqual(
      seeded.map((d) =>
        ['executor', 'main'].map((k) => String((d.tokens[k]?.prompt ?? 0) + (d.tokens[k]?.completion ?? 0))),
      ),
    );
    const share = (t?: { prompt: number; cacheHit: number }) =>
      t?.prompt ? shown(Math.round((t.cacheHit / t.prompt) * 1000) / 10, ' %') : '—';
    expect(await table('cache')).toEqual(
      seeded.map((d) => ['executor', 'main'].map((k) => share(d.tokens[k]))),
    );
    expect(seeded.every((d) => (d.tokens.executor?.cacheHit ?? 0) > 0)).toBe(true);
    expect(await table('ack')).toEqual(seeded.map((d) => [secs(mean(d.ackMs)), secs(Math.max(...d.ackMs))]));
    expect(await table('turns')).toEqual(
      seeded.map((d) => ['executor', 'main'].map((k) => secs(d.turnMs[k]?.[0] ?? 0))),
    );
    const depthRows = await page.locator('figure[data-chart="depth"] .chart-data tbody tr').count();
    expect(depthRows).toBe(91);

    mkdirSync(ARTIFACTS, { recursive: true });
    const shot = join(ARTIFACTS, '40-charts.png');
    await page.evaluate(() => {
      for (const el of document.querySelectorAll<HTMLElement>('.topbar')) el.style.position = 'static';
    });
    await page.locator('#page').screenshot({ path: shot });
    if (process.env.UPDATE_DOCS_SCREENSHOTS === '1') copyFileSync(shot, DOCS_SHOT);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
    await app.close();
    await llm.close();
  }
});
