import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { listenAddress } from '../src/server.js';

test('default host', () => assert.equal(loadConfig({}).host, '127.0.0.1'));
test('default address', () => assert.equal(listenAddress({}), '127.0.0.1:3000'));
