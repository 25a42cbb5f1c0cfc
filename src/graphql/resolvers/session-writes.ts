import { cancelSession, scheduleSessions, updateSession } from '../../domain/availability/session-writes.ts';
import { enumValues } from '../enums.ts';
import type { Resolvers } from '../__generated__/resolvers-types.ts';

/** A brand's schedule: the same domain functions as REST (src/rest/routes/session-writes.ts). */
export const sessionWriteResolvers: Resolvers = {
  Mutation: {
    scheduleSessions: (_, { brandId, experienceId, input }, ctx) =>
      scheduleSessions(ctx.caller(), { brandId, experienceId, body: withoutNulls(input) }),
    updateSession: async (_, { brandId, sessionId, input }, ctx) => ({
      session: await updateSession(ctx.caller(), { brandId, sessionId, capacity: input.capacity }),
    }),
    cancelSession: (_, { brandId, sessionId, input }, ctx) =>
      cancelSession(ctx.caller(), { brandId, sessionId, reason: input?.reason ?? null }),
  },
  SessionStatus: enumValues.SessionStatus,
};

/** GraphQL hands omitted optional fields over as null; the domain reads the body as REST's JSON, where they are absent. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, v]) => (v === null ? [] : [[key, withoutNulls(v)]])));
}
