import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, it } from 'vitest';
import type { TrajectoryFile } from '../../../src/eval/trajectory-file.ts';
import { sampleRecord, sampleSteps, writeRunFolder } from '../../integration/eval/eval-results-fixture.ts';
import { oracleRunFolder } from '../../integration/eval/oracle-folder.ts';
import { startTestApp } from '../../kit/app.ts';
import { TOKEN } from './api.ts';
import { launchChromium, partShot, signedInPage } from './browser.ts';

/** The committed picture in docs/panel.md; rewritten only when `UPDATE_DOCS_SCREENSHOTS=1` asks. */
const DOCS_SHOT = join(import.meta.dirname, '..', '..', '..', 'docs', 'panel-eval.png');
/** The oracle's requests priced, so its run shows a cost (USD per million tokens). */
const PRICES = JSON.stringify({
  compatible: { 'switchyard-oracle': { input: 0.27, cacheHit: 0.07, output: 1.1 } },
});

/** Two earlier runs written by the runner's own code: a partial one, and one repeated twice. */
function history(dir: string): void {
  const steps = sampleSteps(Date.parse('2026-11-28T10:00:00Z'));
  writeRunFolder(dir, new Date('2026-11-28T10:00:00Z'), [
    sampleRecord({ steps, costUsd: 0.021 }),
    sampleRecord({
      id: 'go-clamp',
      resolved: false,
      honest: false,
      dishonesty: ['reported done, but the task is not resolved'],
      costUsd: 0.034,
      toolErrors: { edit_file: 2 },
    }),
  ]);
  writeRunFolder(dir, new Date('2026-11-30T10:00:00Z'), [
    sampleRecord({ steps, costUsd: 0.012 }),
    sampleRecord({ id: 'go-clamp', costUsd: 0.018 }),
    sampleRecord({ run: 2, steps, costUsd: 0.011 }),
    sampleRecord({ id: 'go-clamp', run: 2, resolved: false, honest: true, costUsd: 0.02 }),
  ]);
}

it('issue 29: the Eval page shows the runs, a run’s task outcomes with their trajectories, charts across runs, and an unreadable run', {
  timeout: 400_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-panel-'));
  const app = await startTestApp({ ADMIN_TOKEN: TOKEN, EVAL_RESULTS_DIR: dir }, { workers: false });
  const browser = await launchChromium();
  try {
    const { page, problems } = await signedInPage(browser, app.url, TOKEN);

    // Nothing run yet: the page says how to make a run.
    await page.getByRole('link', { name: 'Eval', exact: true }).click();
    await page.getByRole('heading', { name: 'No eval runs yet' }).waitFor();
    await expect(page.locator('.eval-empty code').textContent()).resolves.toBe('npm run eval -- --oracle');

    history(dir);
    const { folder, records } = await oracleRunFolder(dir, ['js-slugify'], { env: { LLM_PRICES: PRICES } });
    const [oracle] = records;
    if (!oracle?.trajectory) throw new Error('the oracle run kept no trajectory');
    mkdirSync(join(dir, 'hand-edited'));
    writeFileSync(
      join(dir, 'hand-edited', 'results.json'),
      JSON.stringify({ meta: {}, summary: {}, records: [] }),
    );

    await page.reload();
    await page.getByRole('heading', { name: 'Eval', level: 1 }).waitFor();
    const rows = page.locator('table.eval-runs tbody tr');
    await expect(rows.count()).resolves.toBe(4);
    const newest = page.locator(`tr[data-run="${basename(folder)}"]`);
    const cells = await newest.locator('td').allTextContents();
    expect(cells.slice(1)).toEqual([
      'switchyard-oracle · compatibleoracle',
      '1 × 1',
      '1 / 1',
      '1 / 1',
      '100.0 %',
      `$${oracle.costUsd.toFixed(4)}`,
      `$${oracle.costUsd.toFixed(4)}`,
    ]);
    expect(oracle.costUsd).toBeGreaterThan(0);
    // The repeated run shows its interval (issue 47: Student's t — two runs have one degree of
    // freedom, t = 12.7, so 50 % and 100 % bound nothing; 1.96 claimed 26–100 %); the partial run
    // shows its dishonest task.
    await expect(
      page.locator('tr[data-run="2026-11-30T10-00-00-000Z"] td').nth(5).textContent(),
    ).resolves.toMatch(/^75\.0 % \(95 % interval 0\.0 %–100\.0 %\)$/);
    await expect(page.locator('tr[data-run="2026-11-28T10-00-00-000Z"] td.bad').textContent()).resolves.toBe(
      '1 / 2',
    );
    // The hand-edited file: listed as unreadable, with the fields that fail.
    const bad = page.locator('tr[data-run="hand-edited"]');
    await expect(bad.locator('.badge').textContent()).resolves.toBe('Unreadable');
    await expect(bad.locator('.eval-problem').textContent()).resolves.toMatch(
      /results\.json does not match its schema — meta\.startedAt/,
    );

    // Charts across the three readable runs, oldest first: one point each, named and described.
    const rate = page.getByRole('img', {
      name: /^Resolve rate \(pass@1\) pass@1 across 3 runs, oldest first: from 50\.0 % to 100\.0 %\.$/,
    });
    await expect(rate.locator('circle').count()).resolves.toBe(3);
    await expect(rate.locator('line.interval').count()).resolves.toBe(1);
    const cost = page.getByRole('img', {
      name: /^Cost per resolved task Cost per resolved task across 3 runs/,
    });
    await expect(cost.locator('circle').count()).resolves.toBe(3);
    const costRows = await page
      .locator('figure[data-chart="cost-per-resolved"] tbody td.num')
      .allTextContents();
    expect(costRows).toEqual(['$0.0550', '$0.0203', `$${oracle.costUsd.toFixed(4)}`]);
    await partShot(page, '60-eval', { docs: DOCS_SHOT });

    // The oracle's run: each task run's outcome, linking to its trajectory.
    await newest.getByRole('link').click();
    const task = page.locator('tr[data-task="js-slugify"]');
    await task.waitFor();
    const taskCells = await task.locator('td').allTextContents();
    expect(taskCells.slice(1, 5)).toEqual(['yes', 'yes', 'ready', String(oracle.modelRequests)]);
    expect(taskCells[8]).toBe(`${oracle.wallSeconds} s`);
    await partShot(page, '61-eval-run');
    await task.getByRole('link', { name: 'Trajectory of js-slugify #1' }).click();

    // Its trajectory, drawn by the ticket page's trajectory view from the kept file.
    const kept = JSON.parse(readFileSync(join(folder, oracle.trajectory), 'utf8')) as TrajectoryFile;
    const steps = page.locator('ol.trajectory > li');
    await page.getByRole('heading', { name: 'js-slugify #1', level: 1 }).waitFor();
    await expect(steps.count()).resolves.toBe(kept.steps.length);
    await expect(page.locator('ol.trajectory li[data-kind="model"]').count()).resolves.toBe(
      oracle.modelRequests,
    );
    await page.locator('li[data-tool="commit_and_push"]').first().waitFor();
    // Its messages were delivered by a product that is gone: no link to a delivery.
    await expect(page.locator('[data-outbox-key]').count()).resolves.toBe(0);
    await partShot(page, '62-eval-trajectory');

    // In Chinese too.
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: 'js-slugify #1', level: 1 }).waitFor();
    await page.getByRole('link', { name: '← 整次运行' }).click();
    await page.getByRole('columnheader', { name: '工具错误' }).waitFor();
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
