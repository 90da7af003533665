import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as arr from '../src/array.js';

test('last', () => assert.equal(arr.last([1, 2, 3]), 3));
test('chunk', () => assert.deepEqual(arr.chunk?.([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]));
test('chunk of nothing', () => assert.deepEqual(arr.chunk?.([], 3), []));
test('chunk refuses a bad size', () => {
  assert.equal(typeof arr.chunk, 'function');
  assert.throws(() => arr.chunk([1], 0), RangeError);
  assert.throws(() => arr.chunk([1], 1.5), RangeError);
});
