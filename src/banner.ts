/** What `npm start` prints once the gateway listens: where everything is, and (outside production) the demo keys. */
export interface BannerInput {
  /** `http://host:port`, as clients reach it. */
  base: string;
  production: boolean;
  /** The database URL with its password redacted. */
  database: string;
  demoDataLoaded: boolean;
  demoKeys: readonly { secret: string; label: string }[];
}

export function startBanner(input: BannerInput): string {
  const { base, production } = input;
  const ws = base.replace(/^http/, 'ws');
  const lines = [
    '',
    `Tessera is listening on ${base}`,
    `  GraphQL:  ${base}/graphql${production ? '' : '  (open it in a browser for Apollo Sandbox)'}`,
  ];
  if (!production) lines.push(`  GraphiQL: ${base}/graphiql  (served by Tessera, works offline)`);
  lines.push(
    `  Live:     ${ws}/graphql (WebSocket)   ${base}/graphql/stream (Server-Sent Events)`,
    `  REST:     ${base}/v1/...   OpenAPI: ${base}/openapi.json   Docs: ${base}/docs`,
    `  Health:   ${base}/healthz   Ready: ${base}/readyz`,
    `  Database: ${input.database}${input.demoDataLoaded ? ' (demo data loaded)' : ''}`,
  );
  if (!production && input.demoKeys.length > 0) {
    lines.push('  Demo API keys (send as "Authorization: Bearer <key>"):');
    for (const key of input.demoKeys) lines.push(`    ${key.secret.padEnd(26)} ${key.label}`);
  }
  return `${lines.join('\n')}\n\n`;
}
