/** What a client is told, on both faces, while the database cannot take work (DatabaseUnavailableError), and when to try again. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable; retry the request';
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** What a client is told, on both faces, when this gateway refused or dropped its write (DatabaseOverloadedError), and when to try again. */
export const OVERLOADED_MESSAGE = 'The server has more writes waiting than it can take; nothing was written: retry the request';
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;
