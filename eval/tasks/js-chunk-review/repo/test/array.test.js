import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as arr from '../src/array.js';

test('last', () => assert.equal(arr.last([1, 2, 3]), 3));
