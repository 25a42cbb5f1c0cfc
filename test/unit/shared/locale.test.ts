import { describe, expect, it } from 'vitest';
import { pickTranslation } from '../../../src/domain/shared/locale.ts';

const translations = [
  { locale: 'pt', title: 'Passeio' },
  { locale: 'pt-BR', title: 'Passeio (BR)' },
  { locale: 'ja', title: 'ツアー' },
];

describe('pickTranslation', () => {
  it.each([
    ['pt-BR', 'Passeio (BR)'],
    ['pt-br', 'Passeio (BR)'],
    ['pt-PT', 'Passeio'],
    ['pt', 'Passeio'],
    ['ja-JP', 'ツアー'],
  ])('%s -> %s', (locale, title) => {
    expect(pickTranslation(translations, locale)?.title).toBe(title);
  });

  it.each([['fr'], ['en'], [null], [undefined], ['']])('%s falls back to the base text (null)', (locale) => {
    expect(pickTranslation(translations, locale)).toBeNull();
  });
});
