import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cartTotal } from '../src/cart.js';

test('no code', () => assert.equal(cartTotal([{ price: 20, qty: 1 }, { price: 5, qty: 2 }]), 30));
