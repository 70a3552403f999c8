// A tiny video vendor on loopback and an in-test adapter speaking to it (the real Sora/Veo adapters come at merge).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { VideoVendorAdapter, VideoVendorStatus } from '../../src/providers/video/video-vendor-adapter.js';

/** One job the vendor keeps; tests move it along. */
export interface LoopbackJob {
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  progress: number;
  /** seconds the vendor says it generated (when completed) */
  seconds: number;
}

/** The loopback vendor and its controls. */
export interface LoopbackVideoVendor {
  url: string;
  jobs: Map<string, LoopbackJob>;
  /** requests received, e.g. `POST /videos`, `GET /videos/vid_1`, `DELETE /videos/vid_1` */
  requests: string[];
  /** statuses the next submits answer with (then 200 again) */
  submitFailures: number[];
  /** statuses the next polls answer with, with an optional Retry-After */
  pollFailures: Array<{ status: number; retryAfter?: string }>;
  /** when set, polls wait for it before answering */
  pollGate: Promise<void> | undefined;
  /** when true, a content download sends its head and half its body, then nothing more */
  stallDownloads: boolean;
  close(): Promise<void>;
}

/** Starts the vendor on 127.0.0.1 with a free port. */
export async function startLoopbackVideoVendor(): Promise<LoopbackVideoVendor> {
  let counter = 0;
  const vendor: Omit<LoopbackVideoVendor, 'url' | 'close'> = {
    jobs: new Map(),
    requests: [],
    submitFailures: [],
    pollFailures: [],
    pollGate: undefined,
    stallDownloads: false,
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void answer(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  async function answer(request: IncomingMessage, response: ServerResponse, bodyText: string): Promise<void> {
    const path = request.url ?? '';
    vendor.requests.push(`${request.method} ${path}`);
    const match = /^\/videos\/([^/]+)(\/content)?$/.exec(path);
    if (request.method === 'POST' && path === '/videos') {
      const failure = vendor.submitFailures.shift();
      if (failure !== undefined) return json(response, failure, { error: { message: `vendor says ${failure}` } });
      const body = JSON.parse(bodyText) as { seconds: number };
      const id = `vid_${++counter}`;
      vendor.jobs.set(id, { status: 'queued', progress: 0, seconds: body.seconds });
      return json(response, 200, { id, status: 'queued' });
    }
    const job = match ? vendor.jobs.get(match[1]!) : undefined;
    if (!match || !job) return json(response, 404, { error: { message: 'no such job' } });
    if (request.method === 'DELETE') {
      job.status = 'failed';
      return json(response, 200, { id: match[1], deleted: true });
    }
    if (match[2] && vendor.stallDownloads) {
      const bytes = Buffer.from(`VIDEO-BYTES-${match[1]}`);
      response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length) });
      response.write(bytes.subarray(0, 4));
      return;
    }
    if (match[2]) {
      response.writeHead(200, { 'content-type': 'video/mp4' });
      response.end(`VIDEO-BYTES-${match[1]}`);
      return;
    }
    if (vendor.pollGate) await vendor.pollGate;
    const failure = vendor.pollFailures.shift();
    if (failure !== undefined)
      return json(
        response,
        failure.status,
        { error: { message: 'busy' } },
        failure.retryAfter ? { 'retry-after': failure.retryAfter } : {},
      );
    return json(response, 200, { id: match[1], ...job });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(vendor, {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** An adapter for the loopback vendor, on the `openai` channel protocol. */
export const loopbackVideoAdapter: VideoVendorAdapter = {
  protocol: 'openai',
  supportedSeconds: () => [4, 8, 12],
  supportedSizes: () => [
    { width: 720, height: 1280 },
    { width: 1280, height: 720 },
  ],
  encodeSubmit: (job, channel) => ({
    method: 'POST',
    url: `${channel.baseUrl}/videos`,
    headers: { authorization: `Bearer ${channel.secret}` },
    body: JSON.stringify({
      model: job.upstreamModelId,
      prompt: job.prompt,
      seconds: job.seconds,
      size: `${job.width}x${job.height}`,
    }),
  }),
  decodeSubmit: (bodyText) => {
    const id = (JSON.parse(bodyText) as { id?: string }).id;
    if (!id) throw new Error('no id');
    return { vendorTaskId: id };
  },
  encodePoll: (vendorTaskId, channel) => ({
    method: 'GET',
    url: `${channel.baseUrl}/videos/${vendorTaskId}`,
    headers: {},
  }),
  decodePoll: (bodyText): VideoVendorStatus => {
    const job = JSON.parse(bodyText) as LoopbackJob & { id: string };
    switch (job.status) {
      case 'queued':
        return { state: 'queued', progress: job.progress };
      case 'in_progress':
        return { state: 'in-progress', progress: job.progress };
      case 'completed':
        return { state: 'completed', seconds: job.seconds, contentReference: job.id };
      case 'failed':
        return { state: 'failed', code: 'vendor_failed', message: 'The vendor could not make the video.' };
    }
  },
  encodeDownload: (reference, channel, variant) =>
    variant === 'video'
      ? { method: 'GET', url: `${channel.baseUrl}/videos/${reference}/content`, headers: {} }
      : undefined,
  encodeCancel: (vendorTaskId, channel) => ({
    method: 'DELETE',
    url: `${channel.baseUrl}/videos/${vendorTaskId}`,
    headers: {},
  }),
  mapFailure: (status, bodyText) => {
    const message = (JSON.parse(bodyText) as { error?: { message?: string } }).error?.message ?? 'vendor error';
    if (status === 429 || status >= 500)
      return {
        kind: 'retryable-failure',
        error: new GatewayError(status === 429 ? 'rate_limit_exceeded' : 'server_error', message),
      };
    return { kind: 'final-failure', error: new GatewayError('invalid_request_error', message) };
  },
};
