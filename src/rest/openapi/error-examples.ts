/** One answer per error status, as the gateway gives them (the request id is any UUID). */
const requestId = '0f2c9a6e-5b7d-4e1a-9c3b-7d8e9f0a1b2c';
const error = (code: string, message: string, details?: Record<string, unknown>) => ({
  error: { code, message, ...(details ? { details } : {}), requestId },
});

export const errorExamples: Record<string, unknown> = {
  400: error('VALIDATION_FAILED', 'data.0.experienceId must match format "uuid"', { field: 'data.0.experienceId' }),
  401: error('UNAUTHENTICATED', 'The API key is not valid'),
  403: error('FORBIDDEN', 'This API key may not act for brand 6f1c0a52-3d4e-4c1a-9b7e-0b0000000002', {
    brandId: '6f1c0a52-3d4e-4c1a-9b7e-0b0000000002',
  }),
  404: error('NOT_FOUND', 'Booking 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b was not found', { id: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b' }),
  409: error('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; retry later'),
  412: error('PRECONDITION_FAILED', 'The object changed since it was read (If-Match "Y2hhbmdlZA"; it is now "bm93"): read it again', {
    field: 'If-Match',
    etag: '"bm93"',
  }),
  413: error('PAYLOAD_TOO_LARGE', 'Request body is too large'),
  414: error('URI_TOO_LONG', 'A path segment is longer than 100 characters'),
  415: error('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type'),
  422: error('SESSION_NOT_FOUND', 'No session of this experience starts at 2026-12-01T09:00:00', { field: 'data.0.sessionTime' }),
  429: error('RATE_LIMITED', 'Rate limit exceeded: 600 requests per minute for this API key; retry in 12 s'),
  502: error('PAYMENT_PROCESSOR_ERROR', 'The payment processor failed: nothing was held'),
  503: error('DATABASE_UNAVAILABLE', 'The database is unavailable; retry the request'),
};
