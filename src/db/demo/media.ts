/** Demo media: every picture is a `media` row with an `original` and a `480w` rendition on a CDN-like host. */
import type { BrandImage, ImageRef, MediaObject, MediaRendition } from '../../domain/shared/json-types.ts';
import type { NewRow } from '../tables.ts';
import { demoId, type DemoBrandKey } from './ids.ts';

export type MediaInsert = NewRow<'media'>;

const CDN = 'https://media.tessera-demo.com';

export const mediaId = (brand: DemoBrandKey, slug: string): string => demoId(brand, 'media', slug);

type Format = { ext: string; type: string };
const JPEG: Format = { ext: 'jpg', type: 'image/jpeg' };
export const PNG: Format = { ext: 'png', type: 'image/png' };
export const MP4: Format = { ext: 'mp4', type: 'video/mp4' };

const mediaType = (format: Format) => (format.type.startsWith('video/') ? 'video' : 'image');

export function renditions(brand: DemoBrandKey, slug: string, format: Format = JPEG): MediaRendition[] {
  return ['original', '480w'].map((resolution) => ({
    resolution,
    url: `${CDN}/${brand}/${slug}-${resolution}.${format.ext}`,
    type: format.type,
  }));
}

/** The row of a picture (or video) of `brand`. */
export function mediaRow(brand: DemoBrandKey, brandId: string, slug: string, altText: string, format: Format = JPEG): MediaInsert {
  return { id: mediaId(brand, slug), brandId, type: mediaType(format), altText, renditions: renditions(brand, slug, format) };
}

/** A document (e.g. terms and conditions) has a single rendition: the file itself. */
export function documentRow(brand: DemoBrandKey, brandId: string, slug: string, altText: string): MediaInsert {
  return {
    id: mediaId(brand, slug),
    brandId,
    type: 'document',
    altText,
    renditions: [{ resolution: 'original', url: documentUrl(brand, slug), type: 'application/pdf' }],
  };
}

export const documentUrl = (brand: DemoBrandKey, slug: string): string => `${CDN}/${brand}/${slug}.pdf`;

/** An inline picture reference (profile pictures), pointing at the media row of the same slug. */
export function imageRef(brand: DemoBrandKey, slug: string): ImageRef {
  const uri = Object.fromEntries(renditions(brand, slug).map((r) => [r.resolution, r.url]));
  return { id: mediaId(brand, slug), uri };
}

/** A brand image of the design and template elements. */
export function brandImage(brand: DemoBrandKey, slug: string, format: Format = JPEG): BrandImage {
  return { id: mediaId(brand, slug), mimeType: format.type, uri: { original: renditions(brand, slug, format)[0]!.url } };
}

export function mediaObject(brand: DemoBrandKey, slug: string, kind: string, altText: string, format: Format = JPEG): MediaObject {
  return {
    id: mediaId(brand, slug),
    type: mediaType(format),
    kind,
    altText,
    links: renditions(brand, slug, format).map(({ url, type, resolution }) => ({ url, type, resolution })),
  };
}
