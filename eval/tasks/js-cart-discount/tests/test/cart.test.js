import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cartTotal } from '../src/cart.js';

const items = [{ price: 20, qty: 1 }, { price: 5, qty: 2 }];
test('no code', () => assert.equal(cartTotal(items), 30));
test('SAVE10', () => assert.equal(cartTotal(items, 'SAVE10'), 27));
test('FLAT5', () => assert.equal(cartTotal(items, 'FLAT5'), 25));
test('FLAT5 never below zero', () => assert.equal(cartTotal([{ price: 3, qty: 1 }], 'FLAT5'), 0));
test('unknown code', () => assert.throws(() => cartTotal(items, 'NOPE'), /NOPE/));
