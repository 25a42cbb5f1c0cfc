/**
 * Tessera as `npm start` runs it, configured from the environment (the bench sets production, a
 * random encryption key, the sandbox processor, info logs and a raised rate limit), on the database
 * file the bench prepared. The access log is written to standard output, which the bench discards.
 */
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { announceReady, exitWithParent, listenOn } from './child.ts';

exitWithParent();
const config = loadConfig();
const app = await buildApp({ db: openDatabase(config.DATABASE_URL), config });
await app.listen(listenOn);
announceReady(app.server);
