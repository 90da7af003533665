import { runDemo } from '../src/demo/run-demo.ts';

// `npm run demo`: the bot on this machine alone, with a sample repository (src/demo/run-demo.ts).
await runDemo();
