import assert from 'node:assert/strict';
import { test } from 'node:test';
import { run } from '../src/cli.js';

test('greets', () => assert.equal(run(['ada']), 'hello, ada'));
test('--version', () => assert.equal(run(['--version']), '1.4.2'));
test('--help lists --version', () => assert.match(run(['--help']), /--version/));
