/**
 * EXIF orientation of stills and image-sequence frames. A phone stores a JPEG as its sensor read it (landscape)
 * with an EXIF Orientation tag saying how to turn it for display; browsers, ffmpeg and After Effects show it
 * turned, and so does EffectCraft: sharp turns it (its `autoOrient`, never code of ours) where an image is probed
 * at import and where it is decoded, and the footage item records the size as shown.
 */
import type { Metadata } from 'sharp';

/**
 * The clockwise turn an EXIF orientation (1-8) asks for: what a footage item's `media.rotation` records. The
 * mirrored orientations (2, 4, 5, 7) are flipped as well; the turn is what is left once the flip is taken out.
 */
export function orientationTurn(orientation: number | undefined): 0 | 90 | 180 | 270 {
  switch (orientation) {
    case 3:
    case 4:
      return 180;
    case 6:
    case 7:
      return 90;
    case 5:
    case 8:
      return 270;
    default:
      return 0;
  }
}

/** An image's size as shown (after its EXIF orientation), from its header. */
export function uprightSize(meta: Pick<Metadata, 'width' | 'height' | 'autoOrient'>): {
  width: number;
  height: number;
} {
  return meta.autoOrient ?? { width: meta.width, height: meta.height };
}

/**
 * Whether an image of footage `item` is drawn turned by its EXIF orientation. Footage imported before orientation
 * was read recorded the stored size of a turned image (320x180 for a phone's 180x320 portrait): turned now, it
 * would be squeezed into that size. Such an item is drawn as it was imported, until footage.relink probes it
 * again and records the upright size.
 */
export function drawnUpright(
  item: { width: number; height: number },
  meta: Pick<Metadata, 'width' | 'height' | 'autoOrient'>,
): boolean {
  const upright = uprightSize(meta);
  if (upright.width === meta.width && upright.height === meta.height) return true;
  const asStored = meta.width === item.width && meta.height === item.height;
  return !asStored || (upright.width === item.width && upright.height === item.height);
}
