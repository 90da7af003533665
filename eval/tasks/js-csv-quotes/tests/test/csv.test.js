import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCsvLine } from '../src/csv.js';

test('plain', () => assert.deepEqual(parseCsvLine('a,b,c'), ['a', 'b', 'c']));
test('quoted comma', () => assert.deepEqual(parseCsvLine('a,"b,c",d'), ['a', 'b,c', 'd']));
test('escaped quote', () => assert.deepEqual(parseCsvLine('"x""y",z'), ['x"y', 'z']));
test('empty fields', () => assert.deepEqual(parseCsvLine(',,'), ['', '', '']));
