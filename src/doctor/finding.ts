/**
 * What one doctor check found: `ok`, `off` (a channel that is not configured: reported, not a
 * problem), or a `problem` with the fix a person should make.
 */
export type Finding =
  | { check: string; status: 'ok'; detail: string }
  | { check: string; status: 'off'; detail: string }
  | { check: string; status: 'problem'; detail: string; fix: string };

export const ok = (check: string, detail: string): Finding => ({ check, status: 'ok', detail });
export const off = (check: string, detail: string): Finding => ({ check, status: 'off', detail });
export const problem = (check: string, detail: string, fix: string): Finding => ({
  check,
  status: 'problem',
  detail,
  fix,
});

export const isProblem = (f: Finding): f is Extract<Finding, { status: 'problem' }> => f.status === 'problem';
