/** Which engine a DATABASE_URL names: `postgres://` and `postgresql://` URLs are PostgreSQL; paths and `:memory:` are SQLite. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** A database URL fit for a message or a log line: its password is a secret (`postgres://user:<redacted>@host/db`). */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/, '$1:<redacted>@');
}
