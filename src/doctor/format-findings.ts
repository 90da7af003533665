import { CLAUSE_SEPARATOR, type Lang, LIST_SEPARATOR } from '../i18n/lang.ts';
import { sayIn } from './doctor-text.ts';
import { type Finding, isProblem } from './finding.ts';

/** Terminal columns of a short text: a Chinese character (or fullwidth sign) takes two. */
function columns(text: string): number {
  let n = 0;
  for (const ch of text) n += (ch.codePointAt(0) ?? 0) >= 0x2e80 ? 2 : 1;
  return n;
}

/** One report line's mark (`ok`, `off`, `PROBLEM`) in `lang`, padded to the widest. */
function marks(lang: Lang): Record<Finding['status'], string> & { indent: string } {
  const say = sayIn(lang);
  const raw = { ok: say('report.mark.ok'), off: say('report.mark.off'), problem: say('report.mark.problem') };
  const width = Math.max(...Object.values(raw).map(columns));
  const pad = (mark: string) => mark + ' '.repeat(width - columns(mark));
  return { ok: pad(raw.ok), off: pad(raw.off), problem: pad(raw.problem), indent: ' '.repeat(width + 2) };
}

/** The report `npm run doctor` prints: one line per finding, each problem followed by its fix. */
export function formatReport(findings: readonly Finding[], lang: Lang): string {
  const say = sayIn(lang);
  const mark = marks(lang);
  const lines = findings.flatMap((f) => {
    const line = `${mark[f.status]}  ${say('report.finding', { check: f.check, detail: f.detail })}`;
    return isProblem(f) ? [line, `${mark.indent}${say('report.fix', { fix: f.fix })}`] : [line];
  });
  const problems = findings.filter(isProblem).length;
  lines.push('', problems ? say('report.problems', { count: problems }) : say('report.no-problems'));
  return `${lines.join('\n')}\n`;
}

/** The one start-up line: problems first (with their fixes), then what is fine and what is off. */
export function summaryLine(findings: readonly Finding[], lang: Lang): string {
  const say = sayIn(lang);
  const problems = findings.filter(isProblem);
  const names = (status: Finding['status']) =>
    [...new Set(findings.filter((f) => f.status === status).map((f) => f.check))].join(
      LIST_SEPARATOR[lang],
    ) || say('summary.none');
  const list = problems
    .map((p) => say('summary.problem', { check: p.check, detail: p.detail, fix: p.fix }))
    .join(CLAUSE_SEPARATOR[lang]);
  const parts = [
    problems.length ? say('summary.problems', { count: problems.length, list }) : say('report.no-problems'),
    say('summary.ok', { checks: names('ok') }),
    say('summary.off', { checks: names('off') }),
  ];
  return say('summary.line', { parts: parts.join(' | ') });
}
