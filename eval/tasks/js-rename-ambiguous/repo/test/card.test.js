import assert from 'node:assert/strict';
import { test } from 'node:test';
import { card } from '../src/card.js';

test('card', () => assert.equal(card({ first: 'Ada', last: 'Lovelace', balance: 1234 }), 'Lovelace, Ada: $12.34'));
