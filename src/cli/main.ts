import { runCli } from './run-cli.ts';

// The `switchyard` program: bin/switchyard.mjs imports this file with the arguments in process.argv.
// `start` and `demo` keep running in their own modules (-1); the rest exit with their status.
const code = await runCli(process.argv.slice(2));
if (code >= 0) process.exit(code);
