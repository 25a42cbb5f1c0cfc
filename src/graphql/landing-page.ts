import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';

/** What the page says under Apollo's "cannot be loaded" message: the ways on that need no CDN. */
export const OFFLINE_LINKS =
  '<p>Offline or behind a firewall? <a href="/graphiql">GraphiQL</a> is served by Tessera itself, ' +
  'and so is the REST reference at <a href="/docs">/docs</a>.</p>';

/** The end of Apollo's fallback block, shown when Sandbox (loaded from Apollo's CDN) does not start. */
const FALLBACK_END = /(<div class="fallback">[\s\S]*?<\/p>)/;

/**
 * Apollo's local landing page (Sandbox embedded) with links to GraphiQL and /docs in its fallback. The
 * links go in as markup without inline styles or scripts, so the page's nonce-based CSP still holds.
 */
export function landingPageWithOfflineLinks<T extends BaseContext>(): ApolloServerPlugin<T> {
  const sandbox = ApolloServerPluginLandingPageLocalDefault({ embed: true }) as ApolloServerPlugin<T>;
  return {
    async serverWillStart(service) {
      const listener = await sandbox.serverWillStart?.(service);
      const render = listener?.renderLandingPage;
      if (!render) throw new Error("Apollo's landing page plugin rendered no page");
      return {
        async renderLandingPage() {
          const { html } = await render();
          return {
            html: async () => {
              const page = typeof html === 'string' ? html : await html();
              if (!FALLBACK_END.test(page)) throw new Error("Apollo's landing page has no fallback block to add links to");
              return page.replace(FALLBACK_END, `$1\n  ${OFFLINE_LINKS}`);
            },
          };
        },
      };
    },
  };
}
