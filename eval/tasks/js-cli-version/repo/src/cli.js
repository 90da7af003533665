import { HELP } from './help.js';

export function run(args) {
  if (args.includes('--help')) return HELP;
  const name = args[0] ?? 'world';
  return `hello, ${name}`;
}
