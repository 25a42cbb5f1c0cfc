import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { TurnedAway } from '../http/database-unavailable.ts';

/**
 * The error for work turned away before Apollo runs the operation (the context, a plugin): Apollo answers
 * those 500 unless the error carries its status, so it carries the 503 and when to retry.
 */
export const turnedAwayError = (away: TurnedAway): GraphQLError =>
  new GraphQLError(away.message, {
    extensions: {
      code: away.code,
      // Apollo reads a HeaderMap here; the cast is for graphql-yoga's typing of `extensions.http.headers` (a plain
      // record), which joins the program when a test runs Hive Gateway (test/api/federation/hive-gateway.test.ts).
      http: {
        status: 503,
        headers: new HeaderMap([['retry-after', String(away.retryAfterSeconds)]]) as HeaderMap & Record<string, string>,
      },
    },
  });
