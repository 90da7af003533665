import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greet } from '../src/greet.js';
import { MESSAGES } from '../src/messages.js';

test('english', () => assert.equal(greet('Ada', 'en'), 'Hello, Ada!'));
test('chinese', () => assert.equal(greet('小明', 'zh'), '你好，小明！'));
test('in messages.js', () => assert.equal(typeof MESSAGES.zh, 'function'));
test('unknown falls back', () => assert.equal(greet('Ada', 'fr'), 'Hello, Ada!'));
