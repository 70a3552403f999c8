/** Unique columns, by PostgreSQL constraint name and by SQLite's `table.column` wording. */
const uniqueColumnMessages: ReadonlyArray<{ constraint: string; column: string; message: string }> = [
  { constraint: 'users_email_unique', column: 'users.email', message: 'A user with this email already exists' },
  {
    constraint: 'model_groups_name_unique',
    column: 'model_groups.name',
    message: 'A model group with this name already exists',
  },
  { constraint: 'channels_name_unique', column: 'channels.name', message: 'A channel with this name already exists' },
  {
    constraint: 'api_keys_key_hash_unique',
    column: 'api_keys.key_hash',
    message: 'An API key with this hash already exists',
  },
];

/** Turns a driver's unique-violation error into one that names the clashing field; rethrows anything else. */
export function rethrowConstraintViolation(error: unknown): never {
  if (isUniqueViolation(error)) {
    const details = describeDriverError(error);
    const known = uniqueColumnMessages.find(
      (entry) => details.constraint === entry.constraint || details.message.includes(entry.column),
    );
    throw new Error(known?.message ?? `Unique constraint violated: ${details.message}`, { cause: error });
  }
  throw error;
}

/** Whether a driver error is a foreign-key violation (PostgreSQL SQLSTATE 23503 or SQLite's constraint code). */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code } = describeDriverError(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

interface DriverErrorDetails {
  code: string;
  constraint: string;
  message: string;
}

// better-sqlite3 sets `code` to e.g. SQLITE_CONSTRAINT_UNIQUE; pg sets the SQLSTATE and the constraint name.
function describeDriverError(error: unknown): DriverErrorDetails {
  if (typeof error !== 'object' || error === null) {
    return { code: '', constraint: '', message: String(error) };
  }
  const fields = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return {
    code: typeof fields.code === 'string' ? fields.code : '',
    constraint: typeof fields.constraint === 'string' ? fields.constraint : '',
    message: typeof fields.message === 'string' ? fields.message : '',
  };
}

function isUniqueViolation(error: unknown): boolean {
  const { code } = describeDriverError(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
