// The screenshot tool's driver (issue 15 "honest UI delivery", R-C6). It runs INSIDE the ticket's
// sandbox, in one command with the server it photographs: each sandbox has its own network
// namespace and dies with its command, so the server, the browser and the page share a loopback
// nobody else can reach. Plain JavaScript: the sandbox has node but neither tsx nor our sources.
// Input: SHOT_* variables (see screenshot-run.ts). Output: shot.png and summary.json in SHOT_OUT
// (with the page as text, read-page.mjs, when SHOT_TEXT=1).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPage } from './read-page.mjs';

const env = process.env;
const out = env.SHOT_OUT ?? '/tmp';
/** Scratch space: the sandbox's private /tmp, or the run's own folder when unconfined. */
const work = env.SHOT_WORK ?? '/tmp';
const serveLog = join(work, 'serve.log');
const summary = { ok: false };
const done = (code) => {
  writeFileSync(join(out, 'summary.json'), JSON.stringify(summary));
  process.exit(code);
};

/**
 * The base commit's tracked files in a private folder, without touching the checkout: its index,
 * HEAD and files stay as they are. Ignored top-level entries of the checkout (installed
 * dependencies, caches) are linked in, so the same serve command finds them.
 */
function baseTree(root, sha) {
  const dir = join(work, 'base');
  mkdirSync(dir, { recursive: true });
  const gitEnv = { ...env, GIT_INDEX_FILE: join(work, 'base.index') };
  const git = (args) => execFileSync('git', args, { cwd: root, env: gitEnv, encoding: 'utf8' });
  git(['read-tree', sha]);
  git(['checkout-index', '-a', '-f', `--prefix=${dir}/`]);
  const ignored = execFileSync(
    'git',
    ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '--no-empty-directory'],
    { cwd: root, env, encoding: 'utf8' },
  );
  for (const line of ignored.split('\n')) {
    const name = line.replace(/\/$/, '');
    if (!name || name.includes('/')) continue;
    try {
      symlinkSync(join(root, name), join(dir, name));
    } catch {
      // the base commit has its own entry of that name
    }
  }
  return dir;
}

/** Polls the URL until the server answers at all (any status), it exits, or the wait runs out. */
async function waitForServer(url, server, waitMs) {
  const end = Date.now() + waitMs;
  while (Date.now() < end) {
    if (server.exitCode !== null) return `the serve command exited (${server.exitCode}) before answering`;
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return undefined;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return `nothing answered at ${url} within ${Math.round(waitMs / 1000)} s`;
}

/** The picture the model is shown (issue 28): at most 1568 px a side and about 1.15 megapixels. */
const VIEW_SIDE = 1568;
const VIEW_PIXELS = 1_150_000;

/**
 * Writes `view.png`, the screenshot downscaled for the model, when it is larger than the view's
 * limits (the sizes Anthropic's vision guide recommends; OpenAI and DeepSeek take them as they
 * are). The browser itself scales it, on a canvas: the sandbox has no image tools.
 */
async function writeView(browser, shotPath, viewPath) {
  const png = readFileSync(shotPath);
  const w = png.readUInt32BE(16);
  const h = png.readUInt32BE(20);
  const scale = Math.min(1, VIEW_SIDE / Math.max(w, h), Math.sqrt(VIEW_PIXELS / (w * h)));
  if (scale >= 1) return;
  const size = { vw: Math.max(1, Math.floor(w * scale)), vh: Math.max(1, Math.floor(h * scale)) };
  const page = await browser.newPage();
  const url = await page.evaluate(
    async ({ src, vw, vh }) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = vw;
      canvas.height = vh;
      const g = canvas.getContext('2d');
      g.imageSmoothingQuality = 'high';
      g.drawImage(img, 0, 0, vw, vh);
      return canvas.toDataURL('image/png');
    },
    { src: `data:image/png;base64,${png.toString('base64')}`, ...size },
  );
  writeFileSync(viewPath, Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
}

async function shoot(url) {
  const { chromium } = await import(join(env.SHOT_PLAYWRIGHT ?? '', 'index.mjs'));
  const browser = await chromium.launch({
    executablePath: env.SHOT_BROWSER,
    headless: true,
    // The sandbox is the isolation: Chromium's own needs user namespaces the sandbox does not give.
    chromiumSandbox: false,
    args: ['--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const width = Number(env.SHOT_WIDTH);
    const height = Number(env.SHOT_HEIGHT);
    const page = await browser.newPage({ viewport: { width, height } });
    const problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && problems.length < 5) problems.push(`console: ${m.text().slice(0, 200)}`);
    });
    page.on('pageerror', (e) => {
      if (problems.length < 5) problems.push(`page error: ${String(e.message).slice(0, 200)}`);
    });
    const res = await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
    await page.screenshot({ path: join(out, 'shot.png'), fullPage: env.SHOT_FULL_PAGE === '1' });
    await writeView(browser, join(out, 'shot.png'), join(out, 'view.png'));
    // Issue 48 item 6: for a model that reads no pictures, the page as text as well.
    if (env.SHOT_TEXT === '1') summary.text = await readPage(page);
    Object.assign(summary, {
      ok: true,
      status: res?.status() ?? null,
      title: (await page.title()).slice(0, 200),
      finalUrl: page.url(),
      problems,
    });
  } finally {
    await browser.close();
  }
}

async function main() {
  const url = env.SHOT_URL ?? '';
  let root = env.SHOT_ROOT ?? process.cwd();
  if (env.SHOT_AT === 'base') root = baseTree(root, env.SHOT_BASE_SHA ?? '');
  const log = openSync(serveLog, 'w');
  const server = spawn('bash', ['-c', env.SHOT_SERVE ?? ''], {
    cwd: root,
    detached: true,
    stdio: ['ignore', log, log],
  });
  try {
    const late = await waitForServer(url, server, Number(env.SHOT_WAIT_MS));
    if (late) {
      summary.error = late;
      return 1;
    }
    await shoot(url);
    return 0;
  } catch (err) {
    const m = String(err?.message ?? err);
    // Playwright's launch errors put the browser's own words last, after the long command line.
    summary.error = m.length > 1200 ? `${m.slice(0, 300)} … ${m.slice(-900)}` : m;
    return 1;
  } finally {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    summary.serveLog = readFileSync(serveLog, 'utf8').slice(-1500);
  }
}

done(await main());
