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
