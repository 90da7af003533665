import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startTestApp } from '../../kit/app.ts';
import { api, TOKEN } from './api.ts';
import { launchChromium, partShot, signedInPage } from './browser.ts';

/** The committed picture in docs/panel.md; rewritten only when `UPDATE_DOCS_SCREENSHOTS=1` asks. */
const DOCS_SHOT = join(import.meta.dirname, '..', '..', '..', 'docs', 'panel-evaluate.png');
/** The oracle's requests priced by the web process's own table, passed to the run it starts. */
const PRICES = JSON.stringify({
  compatible: { 'switchyard-oracle': { input: 0.27, cacheHit: 0.07, output: 1.1 } },
});

async function saveDispatch(app: Parameters<typeof api>[0], text: string): Promise<number> {
  const view = (await api(app, 'GET', '/prompts')).body;
  const saved = await api(app, 'PUT', '/prompts', {
    baseRevision: view.revision,
    team: view.team,
    skills: view.skills.team,
    overrides: { dispatch: { text } },
  });
  expect(saved.status).toBe(200);
  return saved.body.revision;
}

/**
 * Issue 29, "Evaluate" on the Versions page, in Chromium: an unsaved draft from the Prompts page
 * evaluated against the published prompts (the oracle model, EVAL_ORACLE=1, on one task), a
 * second evaluation refused while it runs, the arms compared once it finished, and the run's page
 * with each arm's task run and trajectory.
 */
it('issue 29: Versions evaluates the unsaved draft against the published prompts and shows the comparison', {
  timeout: 200_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evaluate-panel-'));
  const app = await startTestApp(
    {
      ADMIN_TOKEN: TOKEN,
      EVAL_RESULTS_DIR: dir,
      EVAL_ORACLE: '1',
      EVAL_ONLY: 'js-slugify',
      LLM_PRICES: PRICES,
    },
    { workers: false },
  );
  const browser = await launchChromium();
  try {
    expect(await saveDispatch(app, 'Route carefully.')).toBe(1);
    expect(await saveDispatch(app, 'Route with care.')).toBe(2);
    const { page, problems } = await signedInPage(browser, app.url, TOKEN);

    // No draft yet: the draft's button is off and says why; the older version offers Evaluate.
    await page.getByRole('link', { name: 'Versions', exact: true }).click();
    const evalDraft = page.getByRole('button', { name: 'Evaluate the unsaved draft' });
    await expect(evalDraft.isDisabled()).resolves.toBe(true);
    await page.getByText('No unsaved draft: change something on Prompts first').waitFor();
    await expect(page.locator('tr[data-revision="2"] button', { hasText: 'Evaluate' }).count()).resolves.toBe(
      0,
    );

    // A draft typed on Prompts, left unsaved, is what Versions evaluates.
    await page.getByRole('link', { name: 'Prompt settings', exact: true }).click();
    await page.getByLabel('Team override of dispatch').fill('Route with care; the candidate.');
    await page.getByRole('link', { name: 'Versions', exact: true }).click();
    await expect(evalDraft.isEnabled()).resolves.toBe(true);
    await evalDraft.click();
    const card = page.locator('section[aria-labelledby="evaluate-h"]');
    await card.locator('[data-state="running"]').waitFor();
    await expect(card.locator('.notice').first().textContent()).resolves.toMatch(
      /^Evaluating the draft against the published prompts with the scripted oracle model \(started .+\)…$/,
    );
    // One evaluation at a time: a saved version's Evaluate is refused while the draft's runs.
    await page.getByRole('button', { name: 'Evaluate r1' }).click();
    await card.getByText('An evaluation is already running; wait for it to finish.').waitFor();

    await card.locator('[data-state="finished"]').waitFor({ timeout: 120_000 });
    await expect(card.getByRole('alert').count()).resolves.toBe(0);
    const rows = async (key: string) =>
      card.locator(`table.eval-arms tr[data-row="${key}"] td`).allTextContents();
    await expect(card.locator('table.eval-arms thead th').allTextContents()).resolves.toEqual([
      'Published (r2)',
      'Candidate (the draft)',
      'Candidate − published (95 % interval)',
    ]);
    await expect(rows('resolved')).resolves.toEqual(['1 / 1', '1 / 1', '']);
    await expect(rows('rate')).resolves.toEqual([
      '100.0 %',
      '100.0 %',
      '±0.0 pp (too few pairs for an interval)',
    ]);
    const cost = await rows('cost');
    // Priced by the web process's LLM_PRICES, handed to the run it started.
    expect(cost[0]).toMatch(/^\$0\.\d{4}$/);
    expect(cost[0]).not.toBe('$0.0000');
    expect(cost[2]).toMatch(/^[±+−]\$0\.\d{4} \(too few pairs for an interval\)$/);
    await card.getByText('Too few pairs (1) to tell a difference from chance').waitFor();
    await partShot(page, '61-evaluate', {
      selector: 'section[aria-labelledby="evaluate-h"]',
      docs: DOCS_SHOT,
    });

    // The same run through the API: what each arm ran under, and each arm's own trajectory.
    const { run } = (await api(app, 'GET', '/eval/ab')).body;
    expect(run).toMatchObject({ state: 'finished', exitCode: 0, candidate: 'draft' });
    const results = (await api(app, 'GET', `/eval/runs/${run.run}`)).body;
    expect(results.meta.prompts).toEqual({ published: 'r2', candidate: expect.stringMatching(/^draft /) });
    expect(results.comparison).toMatchObject({ pairs: 1, resolveRate: { difference: { mean: 0 } } });
    expect(results.records.map((r: { arm: string }) => r.arm)).toEqual(['published', 'candidate']);
    const trajectory = (query: string) =>
      api(app, 'GET', `/eval/runs/${run.run}/trajectories/js-slugify/1${query}`);
    for (const arm of ['published', 'candidate']) {
      const kept = await trajectory(`?arm=${arm}`);
      expect(kept.status).toBe(200);
      expect(kept.body.record).toMatchObject({ id: 'js-slugify', run: 1, arm });
      expect(kept.body.steps.length).toBeGreaterThan(0);
    }
    expect((await trajectory('')).status).toBe(404);
    expect(await trajectory('?arm=both')).toMatchObject({ status: 400, body: { code: 'bad_arm' } });

    // The run's page: both arms compared, each arm's task run with its own trajectory.
    await card.getByRole('link', { name: 'Every task run →' }).click();
    await page.getByRole('heading', { name: 'A/B: the draft against r2' }).waitFor();
    await expect(page.locator('.eval-summary').textContent()).resolves.toMatch(
      /^2 × 1: 2 of 2 resolved, 2 honest; pass@1 100\.0 %/,
    );
    await expect(
      page
        .locator('table.eval-records tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-arm'))),
    ).resolves.toEqual(['published', 'candidate']);
    await partShot(page, '62-evaluate-run');
    await page.getByRole('link', { name: 'Trajectory of js-slugify #1 · candidate' }).click();
    await page.getByRole('heading', { name: 'js-slugify #1 · candidate' }).waitFor();
    await expect(page.locator('[data-eval-trajectory]').count()).resolves.toBe(1);
    // The Eval page tells of the last evaluation too.
    await page.getByRole('link', { name: 'Eval', exact: true }).click();
    await page.locator('.eval-ab-state [data-state="finished"]').waitFor();
    // The browser logs the refused second start (409) as a failed resource; nothing else failed.
    expect(problems).toEqual([
      'Failed to load resource: the server responded with a status of 409 (Conflict)',
    ]);
  } finally {
    await browser.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
