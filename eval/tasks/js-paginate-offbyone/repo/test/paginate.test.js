import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paginate } from '../src/paginate.js';

test('page 1', () => assert.deepEqual(paginate([1, 2, 3, 4, 5, 6, 7], 1, 3), [1, 2, 3]));
