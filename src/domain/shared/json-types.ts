/** Shapes of the JSON columns. They are value objects read and written whole. */

/** One stored file of a media item, e.g. `{ resolution: 'original' | '480w', url, type: 'image/jpeg' }`. */
export interface MediaRendition {
  resolution: string;
  url: string;
  type: string;
}

/** A picture referenced inline: `{ id, uri: { original: url, '480w': url } }`. */
export interface ImageRef {
  id: string;
  uri: Record<string, string>;
  /** Text for readers who cannot see the picture, when the brand wrote one. */
  altText?: string;
}

/** A brand image in design/template elements: `{ id, mimeType, uri: { original } }`. */
export interface BrandImage {
  id: string;
  mimeType: string;
  uri: { original: string };
}

export interface MediaObject {
  id: string;
  type: string;
  kind: string;
  altText: string | null;
  links: Array<{ url: string; type: string; resolution: string }>;
}

export interface DesignElement {
  logoId: string;
  logo: BrandImage;
  identityImageId: string;
  identityImage: BrandImage;
  primaryColor: string;
  secondaryColor: string;
  buttonColor: string;
  primaryFont: string;
  secondaryFont: string;
  theme: string;
}

export interface TemplateElement {
  hero: {
    intro: string;
    heading: string;
    description: string;
    mobileImageId: string;
    desktopImageId: string;
    mobileImage: BrandImage;
    desktopImage: BrandImage;
    desktopMedia: MediaObject;
    mobileMedia: MediaObject;
  };
}

/** Wallet payment methods a brand accepts, keyed by wallet name. */
export interface PaymentMethodFlags {
  applePay: boolean;
  googlePay: boolean;
  paypal: boolean;
  klarna: boolean;
  link: boolean;
}

export interface IntegrationMeta {
  type: string;
  key: string;
  value: Record<string, unknown>;
}

export interface QuestionOption {
  key: string;
  value: string;
}

export interface TermsAndConditions {
  label: string;
  mediaId: string;
  isOverrided: boolean;
  mediaUrl?: string;
}

export interface QuestionCondition {
  rule: 'value_matches';
  /** `customQuestionId` of the parent question whose answer is evaluated. */
  conditionKey: string;
  /** Option key that must be among the parent's answers. */
  conditionValue: string;
}

/** How a booking's amount was reached, all in minor units of the booking currency. */
export interface PricingBreakdown {
  /** Sum of the participants' price tiers. */
  tiersMinor: number;
  addOns: Array<{ addOnId: string; name: string; quantity: number; unitPriceMinor: number; totalMinor: number }>;
  /** Tiers plus add-ons. */
  subtotalMinor: number;
  discounts: Array<{ kind: 'amount' | 'percentage' | 'coupon' | 'credit'; code?: string; amountMinor: number }>;
  /** Subtotal less discounts, never below zero. */
  netMinor: number;
  taxes: Array<{ name: string; rateBasisPoints: number; amountMinor: number }>;
  /** What the guest pays: net plus taxes. */
  totalMinor: number;
}

/** The spec's QuestionSnapshot, stored with each answer. */
export interface QuestionSnapshotJson {
  customQuestionId: string;
  prompt: string;
  fieldType: 'input' | 'textarea' | 'multiple_select' | 'single_select' | 'terms_and_conditions';
  options: QuestionOption[] | null;
  termsAndConditions: TermsAndConditions | null;
  config: {
    experienceId: string;
    experienceQuestionId: string;
    isRequired: boolean;
    isActive: boolean;
    order: number;
    scope: 'purchaser' | 'participant';
    conditions: QuestionCondition[] | null;
    conditionsMatchType: 'any' | 'all' | null;
  };
}

/** The spec's AnswerValue: text, a chosen option's label with its key, or a terms acceptance. */
export interface AnswerValueJson {
  value: string | string[] | boolean | null;
  key?: string | null;
}

/** A purchaser or participant of a waitlist entry, with the answers they gave when joining. */
export interface WaitlistPerson {
  firstName: string;
  lastName: string;
  emailAddress: string | null;
  phoneNumber: string | null;
  /** Participants only. */
  priceTierName?: string;
  /** Validated answers, in the shape checkout stores them. */
  answers: Array<{ question: QuestionSnapshotJson; answer: AnswerValueJson[] }>;
}

/**
 * What a refund does to its booking once the processor has refunded, stored with the `pending` refund
 * so whoever settles it (the request that asked, or the reconciler after a crash) needs nothing else.
 */
export interface RefundEffectJson {
  /** Cancel the whole booking (its still-active participants). */
  cancel: boolean;
  /** Cancel only these participants (even with `cancel`); null: none besides what `cancel` says. */
  participantIds: string[] | null;
  /**
   * The asker's own bookkeeping, run in the same transaction: `settle-cart` (a late payment refunded)
   * marks the intent's cart paid once its bookings are all settled.
   */
  also: { kind: 'settle-cart'; intentId: string } | null;
}
