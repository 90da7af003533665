import type { z } from 'zod';
import type { SettingsProblem } from './settings.ts';

const joinPath = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/**
 * Turns zod issues into settings problems: an unrecognised key becomes one `unknown_key` per key
 * (R-F4), anything else about the shape is `invalid_value`.
 */
export function zodProblems(error: z.ZodError): SettingsProblem[] {
  return error.issues.flatMap((issue): SettingsProblem[] => {
    const at = joinPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({
        key: at ? `${at}.${k}` : k,
        code: 'unknown_key',
        message: `"${k}" is not a setting${at ? ` of ${at}` : ''}`,
      }));
    }
    return [{ key: at || '(root)', code: 'invalid_value', message: issue.message }];
  });
}
