import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCsvLine } from '../src/csv.js';

test('plain', () => assert.deepEqual(parseCsvLine('a,b,c'), ['a', 'b', 'c']));
