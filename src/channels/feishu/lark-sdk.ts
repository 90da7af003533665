import { createRequire } from 'node:module';

/** The Lark SDK's exports, as its types describe them (nothing is loaded by this type). */
export type LarkSdk = typeof import('@larksuiteoapi/node-sdk');

const load = createRequire(import.meta.url);
let sdk: LarkSdk | undefined;

/**
 * The official Feishu SDK, loaded the first time Feishu is used (issue 46 item 7): it is one
 * 6.2 MB file with axios, protobufjs and ws behind it, about 0.45 s of CPU to load, which `npm
 * start` with GitHub only and every test process that never speaks Feishu paid at start-up. Its
 * exports are read through here, never imported by value. Loaded synchronously (it is CommonJS),
 * so the functions that use it — opening an encrypted push, making a client — keep their shapes;
 * with Feishu configured the first of them runs at start-up.
 */
export function larkSdk(): LarkSdk {
  sdk ??= load('@larksuiteoapi/node-sdk') as LarkSdk;
  return sdk;
}
