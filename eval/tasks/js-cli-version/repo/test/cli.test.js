import assert from 'node:assert/strict';
import { test } from 'node:test';
import { run } from '../src/cli.js';

test('greets', () => assert.equal(run(['ada']), 'hello, ada'));
