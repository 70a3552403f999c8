/** Which way up a video is: the spec's public id `X` is portrait, `X-landscape` is landscape. */
export type VideoOrientation = 'portrait' | 'landscape';
