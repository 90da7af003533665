import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capitalize, truncate } from '../src/text.js';

test('short text is kept as it is', () => {
  assert.equal(truncate('hello', 10), 'hello');
});

test('capitalize', () => {
  assert.equal(capitalize('hello'), 'Hello');
});
