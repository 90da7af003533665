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

/**
 * The bot's own TypeScript (a development dependency: absent from the production image, where a
 * checkout without its own compiler goes unchecked). `transpileModule` reports syntactic
 * diagnostics only.
 */
export async function typeScriptErrors(text: string, fileName: string): Promise<string[] | undefined> {
  loaded ??= import('typescript').then(
    (m) => (m.default ?? m) as TypeScriptModule,
    () => undefined,
  );
  const ts = await loaded;
  if (!ts) return undefined;
  const out = ts.transpileModule(text, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { jsx: ts.JsxEmit.Preserve },
  });
  return (out.diagnostics ?? []).slice(0, 20).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ').split('\n').join(' ')}`;
  });
}
