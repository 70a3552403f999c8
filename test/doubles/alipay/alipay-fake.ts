// A loopback stand-in for the Alipay open platform: the classic gateway (page pay, request signature checked with
// the app's public key), the v3 API (precreate, trade query; authorization header checked, answers signed), and
// async notifications signed with the platform's private key, retried until the answer is exactly `success`;
// refunds notify the same URL the way Alipay does (`refund_fee` = total refunded so far, `gmt_refund`, `out_biz_no`,
// TRADE_SUCCESS for a partial refund, TRADE_CLOSED with `gmt_close` once all of it is refunded).
import { createSign, createVerify, generateKeyPairSync, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';

/** An RSA-2048 key pair in PEM (PKCS#8 private, SPKI public), as Alipay's key tool makes them. */
export interface RsaKeyPair {
  privateKey: string;
  publicKey: string;
}

/** Makes an RSA-2048 key pair with node:crypto. */
export function createRsaKeyPair(): RsaKeyPair {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

/** A trade as the fake keeps it. */
export interface FakeTrade {
  outTradeNo: string;
  tradeNo: string;
  totalAmount: string;
  subject: string;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  notifyUrl: string;
  returnUrl: string | undefined;
  /** fen refunded so far */
  refundedFen: number;
  /** the last refund's `out_biz_no` (the merchant's refund request number), once refunded */
  lastRefundNumber: string | undefined;
}

/** What a notification carries and how it is signed. */
export interface NotifyOptions {
  /** `bad`: signed with a key that is not the platform's */
  signature?: 'valid' | 'bad';
  appId?: string;
  totalAmount?: string;
  tradeStatus?: string;
}

/** The running fake and its switches. */
export interface AlipayFake {
  /** base URL: the gateway is `${url}/gateway.do`, the v3 endpoint `${url}` */
  url: string;
  appId: string;
  sellerId: string;
  /** the application's key pair (the gateway signs with its private key) */
  appKeys: RsaKeyPair;
  /** the platform's key pair (the gateway verifies with its public key) */
  platformKeys: RsaKeyPair;
  trades: Map<string, FakeTrade>;
  /** requests whose signature did not verify (page pay and v3) */
  badRequestSignatures: number;
  /** opens the cashier for a page-pay URL the gateway made: checks its signature and records the trade */
  openCashier(payUrl: string): Promise<{ status: number; outTradeNo: string | undefined }>;
  /** the buyer pays: the trade succeeds and the notification is delivered until answered `success` (at most `attempts` times) */
  pay(
    outTradeNo: string,
    options?: NotifyOptions & { attempts?: number },
  ): Promise<{ answers: string[]; statuses: number[] }>;
  /** the buyer pays but every notification is lost (reconciliation must find it) */
  payWithoutNotify(outTradeNo: string): void;
  /** delivers one notification for the trade as it stands (or as overridden); returns status and body */
  notify(outTradeNo: string, options?: NotifyOptions): Promise<{ status: number; body: string }>;
  /** the same notification delivered `times` times at once */
  notifyConcurrently(outTradeNo: string, times: number): Promise<string[]>;
  /** refunds `amountFen` of a paid trade (as alipay.trade.refund does) and delivers the refund notification */
  refund(outTradeNo: string, amountFen: number): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1 with a free port. */
export async function startAlipayFake(options: { appId?: string; sellerId?: string } = {}): Promise<AlipayFake> {
  const app: FastifyInstance = Fastify();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  let tradeCounter = 0;
  const appKeys = createRsaKeyPair();
  const platformKeys = createRsaKeyPair();
  const strangerKeys = createRsaKeyPair();

  const fake: AlipayFake = {
    url: '',
    appId: options.appId ?? '2021000000000001',
    sellerId: options.sellerId ?? '2088000000000001',
    appKeys,
    platformKeys,
    trades: new Map(),
    badRequestSignatures: 0,
    async openCashier(payUrl) {
      const response = await request(payUrl);
      const body = await response.body.text();
      return { status: response.statusCode, outTradeNo: /data-out-trade-no="([^"]+)"/.exec(body)?.[1] };
    },
    async pay(outTradeNo, notifyOptions = {}) {
      requireTrade(outTradeNo).status = 'TRADE_SUCCESS';
      const answers: string[] = [];
      const statuses: number[] = [];
      for (let attempt = 0; attempt < (notifyOptions.attempts ?? 3); attempt++) {
        const { status, body } = await fake.notify(outTradeNo, notifyOptions);
        answers.push(body);
        statuses.push(status);
        if (body === 'success') break;
      }
      return { answers, statuses };
    },
    payWithoutNotify(outTradeNo) {
      requireTrade(outTradeNo).status = 'TRADE_SUCCESS';
    },
    async notify(outTradeNo, notifyOptions = {}) {
      const form = signedNotification(outTradeNo, notifyOptions);
      const response = await request(requireTrade(outTradeNo).notifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      return { status: response.statusCode, body: await response.body.text() };
    },
    async notifyConcurrently(outTradeNo, times) {
      const form = signedNotification(outTradeNo, {});
      return Promise.all(
        Array.from({ length: times }, async () => {
          const response = await request(requireTrade(outTradeNo).notifyUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form,
          });
          return response.body.text();
        }),
      );
    },
    async refund(outTradeNo, amountFen) {
      const trade = requireTrade(outTradeNo);
      const total = parseFen(trade.totalAmount);
      if (trade.status !== 'TRADE_SUCCESS' || trade.refundedFen + amountFen > total)
        throw new Error(`trade ${outTradeNo} cannot refund ${amountFen} fen`);
      trade.refundedFen += amountFen;
      refundCounter += 1;
      trade.lastRefundNumber = `refund-${refundCounter}`;
      if (trade.refundedFen === total) trade.status = 'TRADE_CLOSED';
      return fake.notify(outTradeNo);
    },
    close: () => app.close(),
  };
  let refundCounter = 0;

  function requireTrade(outTradeNo: string): FakeTrade {
    const trade = fake.trades.get(outTradeNo);
    if (!trade) throw new Error(`no trade ${outTradeNo}`);
    return trade;
  }

  function recordTrade(
    outTradeNo: string,
    totalAmount: string,
    subject: string,
    notifyUrl: string,
    returnUrl: string | undefined,
  ): FakeTrade {
    const existing = fake.trades.get(outTradeNo);
    if (existing) return existing;
    tradeCounter += 1;
    const trade: FakeTrade = {
      outTradeNo,
      tradeNo: `2026112322001${String(tradeCounter).padStart(8, '0')}`,
      totalAmount,
      subject,
      status: 'WAIT_BUYER_PAY',
      notifyUrl,
      returnUrl,
      refundedFen: 0,
      lastRefundNumber: undefined,
    };
    fake.trades.set(outTradeNo, trade);
    return trade;
  }

  function signedNotification(outTradeNo: string, notifyOptions: NotifyOptions): string {
    const trade = requireTrade(outTradeNo);
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
    const fields: Record<string, string> = {
      notify_time: now,
      notify_type: 'trade_status_sync',
      notify_id: randomUUID().replaceAll('-', ''),
      app_id: notifyOptions.appId ?? fake.appId,
      charset: 'utf-8',
      version: '1.0',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      buyer_id: '2088102177846880',
      seller_id: fake.sellerId,
      trade_status: notifyOptions.tradeStatus ?? trade.status,
      total_amount: notifyOptions.totalAmount ?? trade.totalAmount,
      receipt_amount: trade.totalAmount,
      buyer_pay_amount: trade.totalAmount,
      gmt_create: now,
      gmt_payment: now,
      // Percent signs and plus signs in values catch a second URL-decoding before verification.
      subject: `${trade.subject} 100%+ok`,
    };
    if (trade.lastRefundNumber !== undefined) {
      fields['refund_fee'] = formatFen(trade.refundedFen);
      fields['gmt_refund'] = `${now}.000`;
      fields['out_biz_no'] = trade.lastRefundNumber;
      if (trade.status === 'TRADE_CLOSED') fields['gmt_close'] = now;
    }
    const content = Object.keys(fields)
      .sort()
      .map((key) => `${key}=${fields[key]}`)
      .join('&');
    const key = notifyOptions.signature === 'bad' ? strangerKeys.privateKey : platformKeys.privateKey;
    const sign = createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
    return new URLSearchParams({ ...fields, sign_type: 'RSA2', sign }).toString();
  }

  function signV3Response(reply: { header(name: string, value: string): unknown }, body: string): void {
    const timestamp = String(Date.now());
    const nonce = randomUUID();
    reply.header('alipay-timestamp', timestamp);
    reply.header('alipay-nonce', nonce);
    reply.header(
      'alipay-signature',
      createSign('RSA-SHA256')
        .update(`${timestamp}\n${nonce}\n${body}\n`, 'utf8')
        .sign(platformKeys.privateKey, 'base64'),
    );
  }

  /** Checks `authorization: ALIPAY-SHA256withRSA app_id=...,nonce=...,timestamp=...,sign=...` over method, path and body. */
  function verifyV3Request(authorization: string | undefined, method: string, path: string, body: string): boolean {
    const match = /^ALIPAY-SHA256withRSA (.+),sign=(.+)$/.exec(authorization ?? '');
    if (!match?.[1] || !match[2]) return false;
    if (!match[1].includes(`app_id=${fake.appId}`)) return false;
    return createVerify('RSA-SHA256')
      .update(`${match[1]}\n${method}\n${path}\n${body}\n`, 'utf8')
      .verify(appKeys.publicKey, match[2], 'base64');
  }

  app.get('/gateway.do', async (incoming, reply) => {
    const query = incoming.query as Record<string, string>;
    const { sign, ...signed } = query;
    const content = Object.keys(signed)
      .sort()
      .map((key) => `${key}=${signed[key]}`)
      .join('&');
    if (
      !sign ||
      !createVerify('RSA-SHA256').update(content, 'utf8').verify(appKeys.publicKey, sign, 'base64') ||
      query['app_id'] !== fake.appId
    ) {
      fake.badRequestSignatures += 1;
      return reply.code(400).type('text/html').send('<p>invalid-signature</p>');
    }
    const bizContent = JSON.parse(query['biz_content'] ?? '{}') as {
      out_trade_no: string;
      total_amount: string;
      subject: string;
    };
    const trade = recordTrade(
      bizContent.out_trade_no,
      bizContent.total_amount,
      bizContent.subject,
      query['notify_url'] ?? '',
      query['return_url'],
    );
    return reply
      .type('text/html')
      .send(
        `<div data-out-trade-no="${trade.outTradeNo}">${trade.totalAmount} CNY <button>Pay</button> <button>Close</button></div>`,
      );
  });

  app.post('/v3/alipay/trade/precreate', async (incoming, reply) => {
    const body = String(incoming.body ?? '');
    if (!verifyV3Request(incoming.headers.authorization, 'POST', '/v3/alipay/trade/precreate', body)) {
      fake.badRequestSignatures += 1;
      return reply.code(401).send({ code: 'invalid-signature', message: 'signature does not verify' });
    }
    const input = JSON.parse(body) as {
      out_trade_no: string;
      total_amount: string;
      subject: string;
      notify_url: string;
    };
    recordTrade(input.out_trade_no, input.total_amount, input.subject, input.notify_url, undefined);
    const answer = JSON.stringify({
      out_trade_no: input.out_trade_no,
      qr_code: `https://qr.alipay.com/fake${input.out_trade_no}`,
    });
    signV3Response(reply, answer);
    return reply.type('application/json').send(answer);
  });

  app.post('/v3/alipay/trade/query', async (incoming, reply) => {
    const body = String(incoming.body ?? '');
    if (!verifyV3Request(incoming.headers.authorization, 'POST', '/v3/alipay/trade/query', body)) {
      fake.badRequestSignatures += 1;
      return reply.code(401).send({ code: 'invalid-signature', message: 'signature does not verify' });
    }
    const input = JSON.parse(body) as { out_trade_no: string };
    const trade = fake.trades.get(input.out_trade_no);
    if (!trade) return reply.code(404).send({ code: 'ACQ.TRADE_NOT_EXIST', message: 'trade does not exist' });
    const answer = JSON.stringify({
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      trade_status: trade.status,
      total_amount: trade.totalAmount,
    });
    signV3Response(reply, answer);
    return reply.type('application/json').send(answer);
  });

  fake.url = await app.listen({ host: '127.0.0.1', port: 0 });
  return fake;
}

/** `71.43` -> 7143 */
function parseFen(amount: string): number {
  const [yuan = '0', fen = ''] = amount.split('.');
  return Number(yuan) * 100 + Number(fen.padEnd(2, '0'));
}

/** 7143 -> `71.43` */
function formatFen(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}
