import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rule } from './css.js';

test('button label differs from its background', () => {
  const r = rule('.primary');
  assert.ok(r.color, 'the button sets a text colour');
  assert.notEqual(r.color, r['background-color']);
  assert.match(r.color, /^(#fff(fff)?|white)$/, 'white text on the blue button');
});
