import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { listenAddress } from '../src/server.js';

test('default port', () => assert.equal(loadConfig({}).port, 3000));
test('PORT is read', () => assert.equal(loadConfig({ PORT: '8080' }).port, 8080));
test('bad PORT', () => {
  assert.throws(() => loadConfig({ PORT: 'abc' }));
  assert.throws(() => loadConfig({ PORT: '70000' }));
  assert.throws(() => loadConfig({ PORT: '0' }));
});
test('server uses it', () => assert.equal(listenAddress({ PORT: '8081' }), '127.0.0.1:8081'));
