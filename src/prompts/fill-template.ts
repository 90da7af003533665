/**
 * Replaces `{name}` placeholders with values. Plain split/join rather than a regular expression,
 * so a `$` or a brace in a value is inserted literally; unknown braces are left alone.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  let out = template;
  for (const [name, value] of Object.entries(values)) out = out.split(`{${name}}`).join(value);
  return out;
}

/** `- key: value` lines, the form `{variables}` and `{rules}` are filled with. */
export const bulletLines = (lines: readonly string[]): string => lines.map((l) => `- ${l}`).join('\n');
