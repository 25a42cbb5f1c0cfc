import { describe, expect, it } from 'vitest';
import type { BrandRow } from '../../../src/domain/catalog/store.ts';
import { acceptedPaymentMethods, choosePayment } from '../../../src/domain/payments/methods.ts';
import { DomainError } from '../../../src/domain/shared/errors.ts';

const stored = ['credit-card', 'regional-processor', 'pay-upon-arrival', 'room-charge', 'member-number', 'pay-later', 'cash', 'loyalty'];
const brand = (featuresActive: string[], validate: { room?: boolean; member?: boolean } = {}) =>
  ({ id: 'b', featuresActive, validateRoomCharge: validate.room ?? false, validateMemberCharge: validate.member ?? false }) as BrandRow;

describe('the payment methods an experience advertises', () => {
  it.each<[string, BrandRow, string[]]>([
    ['card only', brand(['creditCard']), ['credit-card', 'pay-later']],
    [
      'every feature',
      brand(['creditCard', 'payUponArrival', 'roomMemberCharge']),
      ['credit-card', 'pay-upon-arrival', 'room-charge', 'member-number', 'pay-later'],
    ],
    ['room charges validated', brand(['creditCard', 'roomMemberCharge'], { room: true }), ['credit-card', 'member-number', 'pay-later']],
    ['member charges validated', brand(['roomMemberCharge'], { member: true }), ['room-charge', 'pay-later']],
    ['no feature', brand([]), ['pay-later']],
  ])('%s: %j', (_name, theBrand, expected) => {
    expect(acceptedPaymentMethods(theBrand, { paymentMethods: stored }, 'brand')).toEqual(expected);
  });

  it.each<[string, BrandRow, string[]]>([
    ['every feature', brand(['creditCard', 'payUponArrival', 'roomMemberCharge']), ['credit-card']],
    [
      'every feature and publishableUnpaidMethods',
      brand(['creditCard', 'payUponArrival', 'roomMemberCharge', 'publishableUnpaidMethods']),
      ['credit-card', 'pay-upon-arrival', 'room-charge', 'member-number', 'pay-later'],
    ],
    ['no feature', brand([]), []],
  ])('to a publishable key, %s: %j (methods left unpaid only with the flag)', (_name, theBrand, expected) => {
    expect(acceptedPaymentMethods(theBrand, { paymentMethods: stored }, 'publishable')).toEqual(expected);
  });

  it('are exactly the methods checkout accepts', () => {
    for (const theBrand of [brand(['creditCard', 'payUponArrival']), brand(['roomMemberCharge'], { room: true }), brand([])]) {
      const experience = { id: 'e', paymentMethods: stored } as Parameters<typeof choosePayment>[1][number];
      const accepted = stored.filter((method) => {
        try {
          choosePayment(theBrand, [experience], { paymentMethod: method as never, roomNumber: '12', memberNumber: 'M1' });
          return true;
        } catch (error) {
          if (error instanceof DomainError) return false;
          throw error;
        }
      });
      expect(acceptedPaymentMethods(theBrand, experience, 'brand')).toEqual(accepted);
    }
  });
});
