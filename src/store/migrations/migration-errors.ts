/**
 * Start-up cannot bring the stored data to this release's schema (issue 20). `code` says why:
 * `store_too_new` (a newer release migrated it; this one would misread it), `bad_version` (the
 * version key holds something that is not a version), `migration_timeout` (another process held
 * the migration lock for too long), `migration_lock_lost` (this process's lock expired mid-step).
 */
export class StoreSchemaError extends Error {
  override name = 'StoreSchemaError' as const;
  readonly code: 'store_too_new' | 'bad_version' | 'migration_timeout' | 'migration_lock_lost';
  constructor(code: StoreSchemaError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

export const isStoreSchemaError = (e: unknown): e is StoreSchemaError =>
  e instanceof Error && e.name === 'StoreSchemaError' && 'code' in e;
