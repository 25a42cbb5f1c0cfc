import { Type } from 'typebox';
import { BrandParams, IfMatchHeaders, Uuid, errorResponses, ref } from './common.ts';

export const CreditCode = Type.Object(
  {
    id: Type.String(),
    code: Type.String({ description: 'Upper-case; checkout matches it ignoring case' }),
    balanceMinor: Type.Integer({ description: 'What is left to spend, in minor units of the brand currency' }),
  },
  { $id: 'CreditCode', description: 'Stored value of the brand (a gift card, goodwill credit), secret keys only' },
);

const CreditCodeParams = Type.Object({ brandId: Uuid, creditCodeId: Uuid });

const CreditCodeDocument = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'A credit code as GET shows it, less `id`: `code` (letters, digits, - and _; unique per brand ignoring case) and `balanceMinor` ' +
      '(integer minor units, from 0). In a PATCH, a JSON merge patch (RFC 7396) of it',
  },
);

const answer = (description: string) => Type.Object({ data: ref(CreditCode) }, { description });

export const listCreditCodesSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'listCreditCodes',
  summary: 'List the credit codes of a brand',
  params: BrandParams,
  response: {
    200: Type.Object({ data: Type.Array(ref(CreditCode)) }, { description: "The brand's credit codes, by code" }),
    ...errorResponses(404),
  },
};

export const getCreditCodeSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'getCreditCode',
  summary: 'Get a credit code',
  params: CreditCodeParams,
  response: { 200: answer('The credit code; its version is in the `ETag` header'), ...errorResponses(404) },
};

export const issueCreditCodeSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'issueCreditCode',
  summary: 'Issue a credit code',
  description: 'Records `credit_code.created`. A code the brand already has (ignoring case) is 409 CREDIT_CODE_TAKEN.',
  params: BrandParams,
  body: CreditCodeDocument,
  response: { 201: answer('The credit code; `ETag` its version, `Location` its URL'), ...errorResponses(400, 404, 409) },
};

export const updateCreditCodeSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'updateCreditCode',
  summary: 'Change a credit code (JSON merge patch)',
  description: 'Records `credit_code.updated` when something changed. Checkout reads the change on its next request.',
  params: CreditCodeParams,
  headers: IfMatchHeaders,
  body: CreditCodeDocument,
  response: { 200: answer('The credit code after the change; `ETag` its new version'), ...errorResponses(400, 404, 409, 412) },
};
