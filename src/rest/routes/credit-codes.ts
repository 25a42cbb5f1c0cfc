import type { FastifyReply } from 'fastify';
import {
  getCreditCode,
  issueCreditCode,
  listCreditCodes,
  updateCreditCode,
  type WrittenCreditCode,
} from '../../domain/catalog/credit-code-writes.ts';
import type { RestApp } from '../plugin.ts';
import { getCreditCodeSchema, issueCreditCodeSchema, listCreditCodesSchema, updateCreditCodeSchema } from '../schemas/credit-codes.ts';

function written(reply: FastifyReply, { creditCode, etag }: WrittenCreditCode) {
  reply.header('etag', etag);
  return { data: creditCode };
}

export function creditCodeRoutes(app: RestApp) {
  app.get('/v1/brands/:brandId/credit-codes', { schema: listCreditCodesSchema }, async (request) => ({
    data: await listCreditCodes(request.caller, { brandId: request.params.brandId }),
  }));

  app.get('/v1/brands/:brandId/credit-codes/:creditCodeId', { schema: getCreditCodeSchema }, async (request, reply) =>
    written(reply, await getCreditCode(request.caller, request.params)),
  );

  app.post('/v1/brands/:brandId/credit-codes', { schema: issueCreditCodeSchema }, async (request, reply) => {
    const result = await issueCreditCode(request.caller, { brandId: request.params.brandId, body: request.body });
    reply.code(201).header('location', `/v1/brands/${request.params.brandId}/credit-codes/${result.creditCode.id}`);
    return written(reply, result);
  });

  app.patch('/v1/brands/:brandId/credit-codes/:creditCodeId', { schema: updateCreditCodeSchema }, async (request, reply) => {
    const ifMatch = request.headers['if-match'];
    return written(reply, await updateCreditCode(request.caller, { ...request.params, patch: request.body, ifMatch }));
  });
}
