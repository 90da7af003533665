import type { Migration } from './migration.ts';

/**
 * Version 1 is the shape every record had when versions were introduced (issue 20). A store
 * without a version key was written by that code, so it needs nothing but the stamp. Later steps
 * describe what they change from here.
 */
export const baseline: Migration = {
  version: 1,
  name: 'baseline: the records as of issue 20',
  async up() {},
};
