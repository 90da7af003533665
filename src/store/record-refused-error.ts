/**
 * A value its owner would not be able to read back (issue 31): it fails the schema the record is
 * read with, so it is never written. Typically an outside answer (GitHub, Feishu) missing a field.
 */
export class RecordRefusedError extends Error {
  override name = 'RecordRefusedError' as const;
  readonly code = 'record_refused' as const;
  /** The Redis key it was to be written to. */
  readonly key: string;
  /** What failed, for people (`z.prettifyError`). */
  readonly problem: string;
  constructor(key: string, problem: string) {
    super(`not written to ${key}: ${problem}`);
    this.key = key;
    this.problem = problem;
  }
}
