import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { fetchRemoteImages } from './fetch-remote-images.js';
import type { FetchRemoteImage, RemoteImageRequest } from './remote-image.js';

function requestsFor(count: number): RemoteImageRequest[] {
  return Array.from({ length: count }, (_, index) => ({
    url: `https://images.example.test/${index}.png`,
    param: `messages[0].content[${index}].image_url.url`,
  }));
}

function wait(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    });
  });
}

describe('fetchRemoteImages', () => {
  it('fetches at most four at once and each URL once, returning the images by URL', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const fetched: string[] = [];
    const fetchSlowly: FetchRemoteImage = async ({ url }) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await wait(10);
      running--;
      fetched.push(url);
      return { mediaType: 'image/png', base64: url };
    };
    const requests = [...requestsFor(9), ...requestsFor(2)];
    const images = await fetchRemoteImages(requests, fetchSlowly);
    expect(mostAtOnce).toBe(4);
    expect(fetched).toHaveLength(9);
    expect(images.get('https://images.example.test/8.png')).toEqual({
      mediaType: 'image/png',
      base64: 'https://images.example.test/8.png',
    });
  });

  it('throws the first failure and cancels the fetches still running', async () => {
    const cancelled: string[] = [];
    const failSecond: FetchRemoteImage = async ({ url, param, signal }) => {
      if (url.endsWith('/1.png'))
        throw new GatewayError('invalid_request_error', 'The image URL answered with HTTP status 404.', { param });
      await wait(1_000, signal).catch((error: unknown) => {
        cancelled.push(url);
        throw error;
      });
      return { mediaType: 'image/png', base64: '' };
    };
    const error = await fetchRemoteImages(requestsFor(6), failSecond).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).param).toBe('messages[0].content[1].image_url.url');
    await wait(0);
    expect(cancelled.sort()).toEqual([
      'https://images.example.test/0.png',
      'https://images.example.test/2.png',
      'https://images.example.test/3.png',
    ]);
  });

  it('needs no fetcher when there is nothing to fetch, and refuses with a 400 naming the first URL otherwise', async () => {
    expect((await fetchRemoteImages([], undefined)).size).toBe(0);
    const error = await fetchRemoteImages(requestsFor(2), undefined).catch((caught: unknown) => caught);
    expect((error as GatewayError).code).toBe('invalid_request_error');
    expect((error as GatewayError).param).toBe('messages[0].content[0].image_url.url');
  });
});
