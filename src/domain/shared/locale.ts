/** Longest language tag accepted (BCP 47 tags in use stay well under it). */
export const MAX_LOCALE_LENGTH = 35;

/** The locale a brand answers in when the caller asks for none: its default locale, else its content's language. */
export const brandLocale = (brand: { language: string; defaultLocale: string | null }): string => brand.defaultLocale ?? brand.language;

/**
 * Picks the translation for `locale`: the exact tag first (`pt-PT`), then its language (`pt`), else
 * null so the caller keeps the base text, which is written in the brand's language.
 */
export function pickTranslation<T extends { locale: string }>(translations: readonly T[], locale: string | null | undefined): T | null {
  if (!locale) return null;
  const wanted = locale.toLowerCase();
  const language = wanted.split('-')[0];
  return (
    translations.find((t) => t.locale.toLowerCase() === wanted) ?? translations.find((t) => t.locale.toLowerCase() === language) ?? null
  );
}
