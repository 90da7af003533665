import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config.ts';
import type { SandboxBind } from '../sandbox/bwrap-args.ts';
import { localGitEnv } from '../sandbox/local-git.ts';
import { runOnCheckout } from '../sandbox/sandbox-command.ts';
import { problemWords, readRegular } from '../workspace/open-regular.ts';
import type { Workspace } from '../workspace/workspace.ts';

/** What to photograph: a server the run starts from the checkout itself, and the page to open on it. */
export interface ShotRequest {
  /** A shell command that serves the UI from the checkout (or from the base commit's files). */
  serve: string;
  /** A loopback URL on that server (`isLoopbackUrl`). */
  url: string;
  /** `base`: the files of `baseSha`, the checkout untouched; `head`: the checkout as it is. */
  at: 'base' | 'head';
  baseSha: string;
  width: number;
  height: number;
  fullPage: boolean;
  waitSeconds: number;
  writable: boolean;
  login: string;
  network?: 'none';
  /** Issue 48 item 6: read the page as text too (the model reads no pictures). */
  asText?: boolean;
}

/** What the browser saw, as the driver reports it. */
export interface PageSummary {
  status: number | null;
  title: string;
  finalUrl: string;
  problems: string[];
  /** The page as text (issue 48 item 6), when asked for. */
  text?: PageText;
}

/** The page as text for a model that reads no pictures (`read-page.mjs`). */
export interface PageText {
  viewportWidth: number;
  scrollWidth: number;
  wide: { selector: string; width: number; right: number }[];
  lowContrast: { text: string; selector: string; color: string; background: string; ratio: number }[];
  text: string;
  aria: string;
}

/** A PNG and its size in pixels. */
export interface Png {
  png: Buffer;
  width: number;
  height: number;
}

/**
 * `png`: the picture as taken (stored on the ticket); `view`: the same downscaled for the model
 * (issue 28), or the picture itself when it is small enough.
 */
export type ShotResult = { ok: true; png: Buffer; view: Png; page: PageSummary } | { ok: false; why: string };

const MAX_PNG = 5 * 1024 * 1024;
const MAX_SUMMARY = 64 * 1024;
/** Reading what the run wrote gives up after this long (issue 31). */
const READ_TIMEOUT_MS = 10_000;
const INSIDE = '/opt/switchyard';
const DRIVER = fileURLToPath(new URL('./shoot-page.mjs', import.meta.url));
/** The driver's page reader (issue 48 item 6), beside it inside the sandbox too. */
const READER = fileURLToPath(new URL('./read-page.mjs', import.meta.url));
const PLAYWRIGHT = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
/**
 * Debian's headless shell first: it renders a page as the full browser does at about half the
 * CPU (no browser UI behind the page; bench/README.md, 3 Dec), and the screenshot is headless.
 */
const CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** `CHROMIUM_PATH`, else Debian's headless shell, Debian's or Ubuntu's Chromium where it exists. */
export function chromiumPath(config: Pick<Config, 'CHROMIUM_PATH'>): string | undefined {
  return config.CHROMIUM_PATH ?? CHROMIUMS.find((p) => existsSync(p));
}

/**
 * Only a server the run itself starts can be photographed: the URL must name this machine's
 * loopback, which inside the sandbox is the sandbox's own (its own network namespace), where
 * nothing but the serve command listens.
 */
export function isLoopbackUrl(raw: string): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  if (u.username || u.password) return false;
  return u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]';
}

/**
 * Takes one screenshot (issue 15, R-C6) in ONE sandboxed command: the serve command starts in the
 * background, headless Chromium (driven by playwright-core, the browser we ship, never a
 * downloaded one) opens the URL once it answers, and the sandbox — server included — dies with
 * the command. Browser and server share the sandbox's network namespace; the host never reaches
 * into it, and nothing else is reachable there. The picture comes out through a fresh folder
 * bound for this run and is read without following links.
 */
export async function takeScreenshot(config: Config, ws: Workspace, req: ShotRequest): Promise<ShotResult> {
  const browser = chromiumPath(config);
  if (!browser || !existsSync(browser))
    return {
      ok: false,
      why: 'no Chromium on this machine; the operator runs `npm run setup` or sets CHROMIUM_PATH',
    };
  const out = await mkdtemp(join(tmpdir(), 'switchyard-shot-'));
  try {
    const confined = config.SANDBOX !== 'none';
    const paths = confined
      ? { driver: `${INSIDE}/shoot-page.mjs`, playwright: `${INSIDE}/playwright-core`, out: `${INSIDE}/out` }
      : { driver: DRIVER, playwright: PLAYWRIGHT, out };
    const binds: SandboxBind[] = [
      { host: DRIVER, inside: paths.driver, writable: false },
      { host: READER, inside: `${INSIDE}/read-page.mjs`, writable: false },
      { host: PLAYWRIGHT, inside: paths.playwright, writable: false },
      { host: out, inside: paths.out, writable: true },
      ...browserBind(browser),
    ];
    const got = await runOnCheckout(config, ws, ['node', paths.driver], {
      writable: req.writable,
      timeoutMs: (req.waitSeconds + 90) * 1000,
      ...(req.network ? { network: req.network } : {}),
      binds,
      env: {
        ...localGitEnv(req.login),
        SHOT_SERVE: req.serve,
        SHOT_URL: req.url,
        SHOT_AT: req.at,
        SHOT_BASE_SHA: req.baseSha,
        SHOT_OUT: paths.out,
        SHOT_WORK: confined ? '/tmp' : out,
        SHOT_ROOT: confined ? '/workspace' : ws.dir,
        SHOT_PLAYWRIGHT: paths.playwright,
        SHOT_BROWSER: browser,
        SHOT_WIDTH: String(req.width),
        SHOT_HEIGHT: String(req.height),
        SHOT_FULL_PAGE: req.fullPage ? '1' : '0',
        SHOT_WAIT_MS: String(req.waitSeconds * 1000),
        SHOT_TEXT: req.asText ? '1' : '0',
      },
    });
    if (!got.ok) return { ok: false, why: got.refusal };
    const summary = await readRegular(join(out, 'summary.json'), {
      capBytes: MAX_SUMMARY,
      timeoutMs: READ_TIMEOUT_MS,
    });
    if (!summary.ok && summary.problem.kind !== 'missing')
      return { ok: false, why: `the run's summary.json ${problemWords(summary.problem)}` };
    const said = summary.ok
      ? (JSON.parse(summary.data.toString('utf8')) as Partial<PageSummary> & DriverSays)
      : undefined;
    if (!said?.ok) {
      const why =
        said?.error ?? (got.result.timedOut ? 'the run timed out' : got.result.output.trim().slice(-800));
      const log = said?.serveLog?.trim() ? `; the serve command's output ends: ${said.serveLog.trim()}` : '';
      return { ok: false, why: `${why}${log}` };
    }
    const png = await readRegular(join(out, 'shot.png'), { capBytes: MAX_PNG, timeoutMs: READ_TIMEOUT_MS });
    if (!png.ok) {
      const missing = png.problem.kind === 'missing';
      return {
        ok: false,
        why: missing ? 'the browser wrote no picture' : `the picture ${problemWords(png.problem)}`,
      };
    }
    const view = await readRegular(join(out, 'view.png'), { capBytes: MAX_PNG, timeoutMs: READ_TIMEOUT_MS });
    if (!view.ok && view.problem.kind !== 'missing')
      return { ok: false, why: `the downscaled picture ${problemWords(view.problem)}` };
    const seen = pngSize(view.ok ? view.data : png.data);
    if (!seen) return { ok: false, why: 'the browser wrote no PNG' };
    return {
      ok: true,
      png: png.data,
      view: seen,
      page: {
        status: said.status ?? null,
        title: said.title ?? '',
        finalUrl: said.finalUrl ?? '',
        problems: said.problems ?? [],
        ...(said.text ? { text: said.text } : {}),
      },
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

interface DriverSays {
  ok?: boolean;
  error?: string;
  serveLog?: string;
}

/** A browser outside `/usr` (which the sandbox sees anyway) is shown read-only where it lives. */
function browserBind(browser: string): SandboxBind[] {
  const real = realpathSync(browser);
  if (real.startsWith('/usr/') && browser.startsWith('/usr/')) return [];
  return [{ host: dirname(real), inside: dirname(real), writable: false }];
}

/** A PNG with its size from its header (IHDR), or undefined for anything else. */
export function pngSize(png: Buffer): Png | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (png.length < 24 || !png.subarray(0, 8).equals(signature)) return undefined;
  return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
