import { createRequire } from 'node:module';
import { parseAllDocuments } from 'yaml';

/**
 * Syntax checks run in the bot's own process (issue 48 item 1) with its own parsers, never the
 * checkout's: each only parses text, so nothing of the repository runs. Errors are
 * `line N: message` lists; undefined when the parser is not installed here.
 */

export function jsonErrors(text: string): string[] {
  try {
    JSON.parse(text);
    return [];
  } catch (err) {
    const msg = (err as Error).message;
    const at = /at position (\d+)/.exec(msg);
    if (!at) return [`invalid JSON: ${msg}`];
    const upTo = text.slice(0, Number(at[1]));
    const line = upTo.split('\n').length;
    const column = upTo.length - upTo.lastIndexOf('\n');
    return [
      `invalid JSON: ${msg.replace(/ in JSON at position \d+.*$/, '')} (line ${line}, column ${column})`,
    ];
  }
}

/** Every document of a YAML stream (Kubernetes files hold several). */
export function yamlErrors(text: string): string[] {
  return parseAllDocuments(text).flatMap((doc) =>
    doc.errors.map((e) => {
      const first = e.message.split('\n')[0] ?? e.message;
      const said = first.replace(/ at line \d+, column \d+:$/, '');
      return `line ${e.linePos?.[0].line ?? 0}: ${said}`;
    }),
  );
}

type TypeScriptModule = typeof import('typescript');
let loaded: Promise<TypeScriptModule | undefined> | undefined;

/** The one TypeScript formatter, shared with the sandbox's driver (`ts-syntax.cjs`). */
const { tsSyntaxErrors } = createRequire(import.meta.url)('./ts-syntax.cjs') as {
  tsSyntaxErrors(ts: TypeScriptModule, text: string, fileName: string): string[];
};

/**
 * The bot's own TypeScript (a development dependency: absent from the production image, where a
 * checkout without its own compiler goes unchecked): syntactic diagnostics only.
 */
export async function typeScriptErrors(text: string, fileName: string): Promise<string[] | undefined> {
  loaded ??= import('typescript').then(
    (m) => (m.default ?? m) as TypeScriptModule,
    () => undefined,
  );
  const ts = await loaded;
  return ts && tsSyntaxErrors(ts, text, fileName);
}
