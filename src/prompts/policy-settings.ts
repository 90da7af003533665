import { z } from 'zod';
import { PROFILES } from '../artifacts/artifact.ts';
import { SKILL_NAME } from './parse-skill.ts';
import type { SettingsProblem } from './settings.ts';
import { zodProblems } from './zod-problems.ts';

const oneLine = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} is empty`)
    .refine((s) => !/[\r\n]/.test(s), `${what} must be one line: the policy lists one line per rule (R-E9)`);

export const PolicyRule = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, 'lowercase letters, digits, _ . - only'),
  name: oneLine('the name'),
  instruction: oneLine('the instruction'),
  enabled: z.boolean(),
  /** The crew an inferred ticket of this rule runs (issue 7); default: the default crew. */
  crew: z.string().regex(SKILL_NAME, 'a crew name in lowercase kebab-case').optional(),
  /** The most an inferred ticket of this rule may do (F-12); default: its crew's profile. */
  profile: z.enum(PROFILES).optional(),
  /** Whether an inferred ticket of this rule may open a pull request (F-12); default: no. */
  openPr: z.boolean().optional(),
  /**
   * Model requests one turn of an inferred ticket of this rule may make (F-12): its own budget,
   * default `INFERRED_MAX_REQUESTS`, never more than `EXECUTOR_MAX_REQUESTS`.
   */
  maxRequests: z.number().int().min(3).max(1000).optional(),
});

/** An inferred ticket's model requests per turn when its rules name none (F-12). */
export const INFERRED_MAX_REQUESTS = 15;

/**
 * Accept mode and rules (R-B8): `explicit` opens tickets only for explicit requests; `inferred`
 * also where an enabled rule matches.
 */
export const PolicySettings = z.strictObject({
  mode: z.enum(['explicit', 'inferred']),
  rules: z.array(PolicyRule).default([]),
});

export type PolicyRule = z.output<typeof PolicyRule>;
export type PolicySettings = z.output<typeof PolicySettings>;

export const defaultPolicy = (): PolicySettings => ({ mode: 'explicit', rules: [] });

/** Parses policy settings, reporting every problem at once, duplicate rule ids included. */
export function parsePolicy(input: unknown) {
  const parsed = PolicySettings.safeParse(input);
  if (!parsed.success) return { ok: false as const, errors: zodProblems(parsed.error) };
  const seen = new Set<string>();
  const errors: SettingsProblem[] = [];
  parsed.data.rules.forEach((r, i) => {
    if (seen.has(r.id)) {
      errors.push({
        key: `rules.${i}.id`,
        code: 'invalid_value',
        message: `rule id "${r.id}" is used twice`,
      });
    }
    seen.add(r.id);
  });
  return errors.length ? { ok: false as const, errors } : { ok: true as const, policy: parsed.data };
}
