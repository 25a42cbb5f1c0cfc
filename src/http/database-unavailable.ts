/** What a client is told, on both faces, while the database cannot take work (DatabaseUnavailableError), and when to try again. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable; retry the request';
export const DATABASE_RETRY_AFTER_SECONDS = 2;
