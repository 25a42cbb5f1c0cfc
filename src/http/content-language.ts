import type { FastifyReply } from 'fastify';

/**
 * `Content-Language`: the languages the answer's text is in (RFC 9110 §8.5), each once, in the order they
 * first appear; none for an answer without text. A client that asked for a locale learns from it whether
 * the content had a translation or fell back to the brand's own language.
 */
export function setContentLanguage(reply: FastifyReply, languages: readonly string[]): void {
  const distinct = [...new Set(languages)];
  if (distinct.length > 0) reply.header('content-language', distinct.join(', '));
}
