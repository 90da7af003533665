import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capitalize, truncate } from '../src/text.js';

test('text that fits is kept as it is', () => {
  assert.equal(truncate('hello', 10), 'hello');
  assert.equal(truncate('hello', 5), 'hello');
  assert.equal(truncate('', 3), '');
});

test('cut text ends with an ellipsis and stays within max', () => {
  assert.equal(truncate('Hello world', 8), 'Hello w…');
  assert.equal(truncate('abcdef', 2), 'a…');
  for (const max of [1, 2, 5, 9]) assert.ok(truncate('a long sentence here', max).length <= max, `max ${max}`);
});

test('capitalize', () => {
  assert.equal(capitalize('hello'), 'Hello');
});
