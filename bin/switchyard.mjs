#!/usr/bin/env node
// The `switchyard` command (issue 32): the TypeScript sources through tsx in a checkout (a dev
// dependency), else the compiled CLI (dist/, as in the image).
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
const built = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(source) && existsSync(new URL('../node_modules/tsx/package.json', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(built.href);
}
