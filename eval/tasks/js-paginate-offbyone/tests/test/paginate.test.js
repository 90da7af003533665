import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paginate } from '../src/paginate.js';

const items = [1, 2, 3, 4, 5, 6, 7];
test('page 1', () => assert.deepEqual(paginate(items, 1, 3), [1, 2, 3]));
test('page 2', () => assert.deepEqual(paginate(items, 2, 3), [4, 5, 6]));
test('page 3', () => assert.deepEqual(paginate(items, 3, 3), [7]));
