import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sum } from '../src/sum.js';

test('sum', () => assert.equal(sum([1, 2, 3]), 6));
test('empty', () => assert.equal(sum([]), 0));
