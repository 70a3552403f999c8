/** A frame size in pixels, e.g. `{width: 720, height: 1280}` for portrait. */
export interface VideoSize {
  /** pixels */
  width: number;
  /** pixels */
  height: number;
}

/** `<width>x<height>`, the spelling OpenAI's `size` field and the catalog use. */
export function formatVideoSize(size: VideoSize): string {
  return `${size.width}x${size.height}`;
}

/** True when the frame is taller than wide (9:16 and the like). */
export function isPortraitSize(size: VideoSize): boolean {
  return size.height > size.width;
}
