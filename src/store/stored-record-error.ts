/**
 * A stored record that does not have the shape its owner writes (issue 20): corrupted, written by
 * hand, or by a release whose migration did not run. Reported, never cast and used as if valid.
 */
export class StoredRecordError extends Error {
  override name = 'StoredRecordError' as const;
  readonly code = 'invalid_record' as const;
  /** The Redis key (and field, for a hash) it was read from. */
  readonly key: string;
  /** What failed, for people (`z.prettifyError`, or the JSON syntax error). */
  readonly problem: string;
  constructor(key: string, problem: string) {
    super(`stored record ${key} is invalid: ${problem}`);
    this.key = key;
    this.problem = problem;
  }
}

export const isStoredRecordError = (e: unknown): e is StoredRecordError =>
  e instanceof Error && e.name === 'StoredRecordError' && 'key' in e;
