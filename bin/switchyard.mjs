#!/usr/bin/env node
// The `switchyard` command (issue 32): the TypeScript sources in a checkout — with Node's own type
// stripping where it has it (22.18 and later), else through tsx (a dev dependency) — or the
// compiled CLI (dist/, as in the image). Node's compile cache makes each later start cheaper.
import { existsSync } from 'node:fs';
import module from 'node:module';

module.enableCompileCache?.();
const source = new URL('../src/cli/main.ts', import.meta.url);
const built = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(source) && process.features.typescript) {
  await import(source.href);
} else if (existsSync(source) && existsSync(new URL('../node_modules/tsx/package.json', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(built.href);
}
