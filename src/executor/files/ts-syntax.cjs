// TypeScript's syntactic diagnostics as `line N: message` lines (issue 48 item 1), the one
// formatter for both checks: the bot's own compiler in-process (syntax-local.ts) and a checkout's
// own compiler in the sandbox (syntax-drivers.ts's TS_DRIVER, which requires this file there).
// Plain CommonJS: the sandbox has node but neither tsx nor our sources. `transpileModule` reports
// syntactic diagnostics only, no types, so no other file is read.
'use strict';

/** The first 20 syntax errors of `text`, parsed as `fileName` by the compiler `ts`. */
function tsSyntaxErrors(ts, text, fileName) {
  const out = ts.transpileModule(text, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { jsx: 1 /* Preserve */ },
  });
  return (out.diagnostics || []).slice(0, 20).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ').split('\n').join(' ')}`;
  });
}

module.exports = { tsSyntaxErrors };
