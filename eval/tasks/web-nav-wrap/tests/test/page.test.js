import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rule } from './css.js';

test('the nav wraps and fits a narrow screen', () => {
  const r = rule('.top');
  assert.equal(r['flex-wrap'], 'wrap');
  assert.notEqual(r['white-space'], 'nowrap');
  assert.ok(!r.width || !/^\d+px$/.test(r.width) || Number.parseInt(r.width, 10) <= 375, `fixed width ${r.width}`);
});
