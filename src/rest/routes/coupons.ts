import type { FastifyReply } from 'fastify';
import { createCoupon, getCoupon, listCoupons, updateCoupon, type WrittenCoupon } from '../../domain/catalog/coupon-writes.ts';
import type { RestApp } from '../plugin.ts';
import { createCouponSchema, getCouponSchema, listCouponsSchema, updateCouponSchema } from '../schemas/coupons.ts';

function written(reply: FastifyReply, { coupon, etag }: WrittenCoupon) {
  reply.header('etag', etag);
  return { data: coupon };
}

export function couponRoutes(app: RestApp) {
  app.get('/v1/brands/:brandId/coupons', { schema: listCouponsSchema }, async (request) => ({
    data: await listCoupons(request.caller, { brandId: request.params.brandId }),
  }));

  app.get('/v1/brands/:brandId/coupons/:couponId', { schema: getCouponSchema }, async (request, reply) =>
    written(reply, await getCoupon(request.caller, request.params)),
  );

  app.post('/v1/brands/:brandId/coupons', { schema: createCouponSchema }, async (request, reply) => {
    const result = await createCoupon(request.caller, { brandId: request.params.brandId, body: request.body });
    reply.code(201).header('location', `/v1/brands/${request.params.brandId}/coupons/${result.coupon.id}`);
    return written(reply, result);
  });

  app.patch('/v1/brands/:brandId/coupons/:couponId', { schema: updateCouponSchema }, async (request, reply) => {
    const ifMatch = request.headers['if-match'];
    return written(reply, await updateCoupon(request.caller, { ...request.params, patch: request.body, ifMatch }));
  });
}
