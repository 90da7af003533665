import assert from 'node:assert/strict';
import { test } from 'node:test';
import { card } from '../src/card.js';
import * as money from '../src/money.js';
import * as names from '../src/names.js';

test('card', () => assert.equal(card({ first: 'Ada', last: 'Lovelace', balance: 1234 }), 'Lovelace, Ada: $12.34'));
test('names.formatName', () => {
  assert.equal(names.formatName?.('Ada', 'Lovelace'), 'Lovelace, Ada');
  assert.equal(names.fmt, undefined);
});
test('money.fmt untouched', () => assert.equal(money.fmt(5), '$0.05'));
