/**
 * The limit L: a bare node:http server answering precomputed bytes. BENCH_ANSWERS names a JSON file of
 * `{ method, path, contentType, body (base64) }` entries: the exact answers Tessera gave, captured by
 * the bench. Anything else is 404. The request body is read before answering, as any server must.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { announceReady, exitWithParent, listenOn } from './child.ts';

export interface CannedAnswer {
  method: string;
  path: string;
  contentType: string;
  body: string;
}

exitWithParent();
const entries = JSON.parse(readFileSync(process.env.BENCH_ANSWERS!, 'utf8')) as CannedAnswer[];
const answers = new Map(
  entries.map((e) => {
    const body = Buffer.from(e.body, 'base64');
    return [`${e.method} ${e.path}`, { body, headers: { 'content-type': e.contentType, 'content-length': body.length } }];
  }),
);

const server = createServer((request, response) => {
  const answer = answers.get(`${request.method} ${request.url}`);
  request.resume();
  request.on('end', () => {
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, answer.headers).end(answer.body);
  });
});
server.listen(listenOn, () => announceReady(server));
