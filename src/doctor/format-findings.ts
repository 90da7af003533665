import { type Finding, isProblem } from './finding.ts';

const MARK = { ok: 'ok     ', off: 'off    ', problem: 'PROBLEM' } as const;

/** The report `npm run doctor` prints: one line per finding, each problem followed by its fix. */
export function formatReport(findings: readonly Finding[]): string {
  const lines = findings.flatMap((f) => {
    const line = `${MARK[f.status]}  ${f.check}: ${f.detail}`;
    return isProblem(f) ? [line, `         fix: ${f.fix}`] : [line];
  });
  const problems = findings.filter(isProblem).length;
  lines.push('', problems ? `${problems} problem(s): fix them and run npm run doctor again` : 'no problems');
  return `${lines.join('\n')}\n`;
}

/** The one start-up line: problems first (with their fixes), then what is fine and what is off. */
export function summaryLine(findings: readonly Finding[]): string {
  const problems = findings.filter(isProblem);
  const names = (status: Finding['status']) => [
    ...new Set(findings.filter((f) => f.status === status).map((f) => f.check)),
  ];
  const parts = [
    problems.length
      ? `${problems.length} problem(s): ${problems.map((p) => `${p.check}: ${p.detail} (fix: ${p.fix})`).join('; ')}`
      : 'no problems',
    `ok: ${names('ok').join(', ') || 'none'}`,
    `off: ${names('off').join(', ') || 'none'}`,
  ];
  return `doctor: ${parts.join(' | ')}`;
}
