import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from '../src/slugify.js';

test('plain words', () => assert.equal(slugify('Hello World'), 'hello-world'));
test('accents and punctuation', () => assert.equal(slugify('Crème Brûlée -- Recipe!'), 'creme-brulee-recipe'));
test('no dashes at the ends', () => assert.equal(slugify('  --Hi--  '), 'hi'));
