import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalMain } from '../../../src/eval/cli.ts';
import type { ResultsFile } from '../../../src/eval/results-file.ts';

/** `npm run eval -- args` into a temporary results folder; the run's folder and results.json. */
export async function runEval(
  args: string[],
): Promise<{ code: number; lines: string[]; folder: string; results: ResultsFile; cleanup(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'eval-results-'));
  const lines: string[] = [];
  const code = await evalMain(['--results', dir, '--timeout', '200', ...args], (l) => lines.push(l));
  const [stamp] = readdirSync(dir);
  const folder = join(dir, stamp as string);
  const results = JSON.parse(readFileSync(join(folder, 'results.json'), 'utf8')) as ResultsFile;
  return { code, lines, folder, results, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
