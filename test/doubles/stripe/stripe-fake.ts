// A loopback stand-in for the Stripe API (Checkout Sessions, the charges they make, refunds and disputes of them) and
// its hosted page, with webhook delivery signed exactly as Stripe signs (stripe.webhooks.generateTestHeaderString).
// Driven by the real `stripe` client.
import Fastify, { type FastifyInstance } from 'fastify';
import qs from 'qs';
import Stripe from 'stripe';
import { request } from 'undici';

/** One Checkout Session as the fake keeps it (the fields the gateway reads). */
export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  mode: string;
  /** the PaymentIntent once paid, else null */
  payment_intent: string | null;
}

/** The charge a paid session made (the fields the gateway reads). */
export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  currency: string;
  /** the session's `payment_intent_data.metadata` */
  metadata: Record<string, string>;
  payment_intent: string;
  disputed: boolean;
}

/** A dispute (chargeback) of a charge. */
export interface FakeDispute {
  id: string;
  object: 'dispute';
  amount: number;
  charge: string;
  currency: string;
  payment_intent: string;
  status: string;
}

/** How a webhook delivery is signed and what it carries. */
export interface DeliveryOptions {
  /** `bad`: signed with another secret; `stale`: a timestamp 10 minutes old; `none`: no header */
  signature?: 'valid' | 'bad' | 'stale' | 'none';
  /** report this amount instead of the session's */
  amountTotal?: number;
}

/** An event body and its `Stripe-Signature` header, as delivered. */
export interface SignedEvent {
  payload: string;
  header: string | undefined;
}

/** The running fake and its switches. */
export interface StripeFake {
  /** base URL for GATEWAY_STRIPE_API_URL */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** where events are POSTed (the gateway's /api/payments/stripe/webhook) */
  webhookUrl: string;
  sessions: Map<string, FakeCheckoutSession>;
  /** how many create calls arrived (idempotent repeats included) */
  createCalls: number;
  /** Idempotency-Key of every create call, in order */
  idempotencyKeys: string[];
  /** answer the next create with this HTTP status and a Stripe error body */
  failNextCreate: number | undefined;
  /** payments complete `unpaid` (a delayed method) and settle later with async events */
  delayedPayments: boolean;
  /** charges by id, made when a session is paid */
  charges: Map<string, FakeCharge>;
  /** charges carry no metadata (orders created before the gateway set it): the order is found through the session */
  omitChargeMetadata: boolean;
  /** the charge a paid session made */
  chargeOf(sessionId: string): FakeCharge;
  /** refunds `amount` minor units of the session's charge (as from the dashboard) and delivers `charge.refunded` */
  refund(sessionId: string, amount: number): Promise<number>;
  /** opens a dispute of `amount` minor units on the session's charge and delivers `charge.dispute.created` */
  openDispute(sessionId: string, amount: number): Promise<{ status: number; disputeId: string }>;
  /** closes the dispute with Stripe's status (`won`, `lost`, `warning_closed`) and delivers `charge.dispute.closed` */
  closeDispute(disputeId: string, status: string): Promise<number>;
  /** delivers the last event again, same id and signature; returns the gateway's HTTP status */
  redeliverLast(): Promise<number>;
  /** the last event delivered, as signed (to deliver it again later with `redeliver`) */
  lastEvent(): SignedEvent;
  /** delivers a signed event again; returns the gateway's HTTP status */
  redeliver(event: SignedEvent): Promise<number>;
  /** the hosted page's Pay: marks the session paid (unless delayed), delivers checkout.session.completed, returns the redirect */
  pay(sessionId: string, options?: DeliveryOptions): Promise<{ webhookStatus: number; redirect: string }>;
  /** marks the session paid silently: the webhook is lost (reconciliation must find it) */
  payWithoutWebhook(sessionId: string): void;
  /** signs and delivers one event about a session; returns the gateway's HTTP status */
  deliver(type: string, sessionId: string, options?: DeliveryOptions): Promise<number>;
  /** the same event (same id, same signature) delivered `times` times at once; returns the statuses */
  deliverConcurrently(type: string, sessionId: string, times: number): Promise<number[]>;
  close(): Promise<void>;
}

let eventCounter = 0;

/** Starts the fake on 127.0.0.1 with a free port. */
export async function startStripeFake(
  options: { secretKey?: string; webhookSecret?: string } = {},
): Promise<StripeFake> {
  const secretKey = options.secretKey ?? 'sk_test_fake_secret';
  const webhookSecret = options.webhookSecret ?? 'whsec_fake_secret';
  const app: FastifyInstance = Fastify();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, qs.parse(body as string)),
  );
  const sessionsByKey = new Map<string, string>();
  const intentMetadata = new Map<string, Record<string, string>>();
  const disputes = new Map<string, FakeDispute>();
  let sessionCounter = 0;
  let chargeCounter = 0;
  let disputeCounter = 0;
  let lastEvent: SignedEvent | undefined;

  const fake: StripeFake = {
    url: '',
    secretKey,
    webhookSecret,
    webhookUrl: '',
    sessions: new Map(),
    createCalls: 0,
    idempotencyKeys: [],
    failNextCreate: undefined,
    delayedPayments: false,
    charges: new Map(),
    omitChargeMetadata: false,
    chargeOf(sessionId) {
      const intent = requireSession(sessionId).payment_intent;
      const charge = [...fake.charges.values()].find((candidate) => candidate.payment_intent === intent);
      if (!charge) throw new Error(`session ${sessionId} made no charge`);
      return charge;
    },
    async refund(sessionId, amount) {
      const charge = fake.chargeOf(sessionId);
      if (charge.amount_refunded + amount > charge.amount) throw new Error('refund above the charge');
      charge.amount_refunded += amount;
      charge.refunded = charge.amount_refunded === charge.amount;
      return post(...signObject('charge.refunded', charge));
    },
    async openDispute(sessionId, amount) {
      const charge = fake.chargeOf(sessionId);
      disputeCounter += 1;
      const dispute: FakeDispute = {
        id: `dp_test_${disputeCounter}`,
        object: 'dispute',
        amount,
        charge: charge.id,
        currency: charge.currency,
        payment_intent: charge.payment_intent,
        status: 'needs_response',
      };
      disputes.set(dispute.id, dispute);
      charge.disputed = true;
      return { status: await post(...signObject('charge.dispute.created', dispute)), disputeId: dispute.id };
    },
    async closeDispute(disputeId, status) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`no dispute ${disputeId}`);
      dispute.status = status;
      return post(...signObject('charge.dispute.closed', dispute));
    },
    async redeliverLast() {
      return fake.redeliver(fake.lastEvent());
    },
    lastEvent() {
      if (!lastEvent) throw new Error('no event delivered yet');
      return lastEvent;
    },
    redeliver: (event) => post(event.payload, event.header),
    async pay(sessionId, delivery = {}) {
      const session = requireSession(sessionId);
      session.status = 'complete';
      if (!fake.delayedPayments) {
        session.payment_status = 'paid';
        makeCharge(session);
      }
      const webhookStatus = await fake.deliver('checkout.session.completed', sessionId, delivery);
      return { webhookStatus, redirect: session.success_url };
    },
    payWithoutWebhook(sessionId) {
      const session = requireSession(sessionId);
      session.status = 'complete';
      session.payment_status = 'paid';
      makeCharge(session);
    },
    async deliver(type, sessionId, delivery = {}) {
      const { payload, header } = signEvent(type, sessionId, delivery);
      lastEvent = { payload, header };
      return post(payload, header);
    },
    async deliverConcurrently(type, sessionId, times) {
      const { payload, header } = signEvent(type, sessionId, {});
      return Promise.all(Array.from({ length: times }, () => post(payload, header)));
    },
    close: () => app.close(),
  };

  /** The session's payment succeeded: a PaymentIntent and its charge (once). */
  function makeCharge(session: FakeCheckoutSession): void {
    if (session.payment_intent !== null) return;
    chargeCounter += 1;
    session.payment_intent = `pi_test_${chargeCounter}`;
    const made: FakeCharge = {
      id: `ch_test_${chargeCounter}`,
      object: 'charge',
      amount: session.amount_total,
      amount_refunded: 0,
      refunded: false,
      currency: session.currency,
      metadata: fake.omitChargeMetadata ? {} : (intentMetadata.get(session.id) ?? {}),
      payment_intent: session.payment_intent,
      disputed: false,
    };
    fake.charges.set(made.id, made);
  }

  /** Signs an event about any object (a charge, a dispute) and remembers it for redeliverLast. */
  function signObject(type: string, object: object): [string, string] {
    eventCounter += 1;
    const payload = JSON.stringify({
      id: `evt_test_${eventCounter}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: { ...object } },
    });
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
      timestamp: Math.floor(Date.now() / 1000),
    });
    lastEvent = { payload, header };
    return [payload, header];
  }

  function requireSession(sessionId: string): FakeCheckoutSession {
    const session = fake.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    return session;
  }

  function signEvent(
    type: string,
    sessionId: string,
    delivery: DeliveryOptions,
  ): { payload: string; header: string | undefined } {
    const session = requireSession(sessionId);
    if (type === 'checkout.session.async_payment_succeeded') {
      session.payment_status = 'paid';
      makeCharge(session);
    }
    if (type === 'checkout.session.expired') session.status = 'expired';
    const object = { ...session, amount_total: delivery.amountTotal ?? session.amount_total };
    eventCounter += 1;
    const payload = JSON.stringify({
      id: `evt_test_${eventCounter}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    });
    const signature = delivery.signature ?? 'valid';
    if (signature === 'none') return { payload, header: undefined };
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: signature === 'bad' ? 'whsec_someone_else' : webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - (signature === 'stale' ? 600 : 0),
    });
    return { payload, header };
  }

  async function post(payload: string, header: string | undefined): Promise<number> {
    const response = await request(fake.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(header ? { 'stripe-signature': header } : {}) },
      body: payload,
    });
    await response.body.dump();
    return response.statusCode;
  }

  app.addHook('onRequest', async (incoming, reply) => {
    if (!incoming.url.startsWith('/v1/')) return;
    if (incoming.headers.authorization !== `Bearer ${secretKey}`) {
      return reply.code(401).send({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
  });

  app.post('/v1/checkout/sessions', async (incoming, reply) => {
    fake.createCalls += 1;
    if (fake.failNextCreate !== undefined) {
      const status = fake.failNextCreate;
      fake.failNextCreate = undefined;
      return reply
        .code(status)
        .send({ error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message: 'simulated failure' } });
    }
    const key = incoming.headers['idempotency-key'];
    if (typeof key === 'string') fake.idempotencyKeys.push(key);
    const existing = typeof key === 'string' ? sessionsByKey.get(key) : undefined;
    if (existing) return fake.sessions.get(existing);
    const body = incoming.body;
    const unitAmount = Number(field(body, 'line_items', '0', 'price_data', 'unit_amount'));
    if (field(body, 'mode') !== 'payment' || !Number.isInteger(unitAmount) || unitAmount <= 0) {
      return reply
        .code(400)
        .send({ error: { type: 'invalid_request_error', message: 'bad checkout session parameters' } });
    }
    sessionCounter += 1;
    const id = `cs_test_${sessionCounter}`;
    const session: FakeCheckoutSession = {
      id,
      object: 'checkout.session',
      url: `${fake.url}/pay/${id}`,
      status: 'open',
      payment_status: 'unpaid',
      amount_total: unitAmount * Number(field(body, 'line_items', '0', 'quantity') ?? 1),
      currency: String(field(body, 'line_items', '0', 'price_data', 'currency')),
      client_reference_id: (field(body, 'client_reference_id') as string | undefined) ?? null,
      metadata: (field(body, 'metadata') as Record<string, string> | undefined) ?? {},
      success_url: String(field(body, 'success_url')),
      cancel_url: String(field(body, 'cancel_url')),
      expires_at: Number(field(body, 'expires_at') ?? Math.floor(Date.now() / 1000) + 86_400),
      mode: 'payment',
      payment_intent: null,
    };
    fake.sessions.set(id, session);
    intentMetadata.set(
      id,
      (field(body, 'payment_intent_data', 'metadata') as Record<string, string> | undefined) ?? {},
    );
    if (typeof key === 'string') sessionsByKey.set(key, id);
    return session;
  });

  app.get<{ Querystring: { payment_intent?: string } }>('/v1/checkout/sessions', async (incoming) => {
    const intent = incoming.query.payment_intent;
    const data = [...fake.sessions.values()].filter(
      (session) => intent === undefined || session.payment_intent === intent,
    );
    return { object: 'list', url: '/v1/checkout/sessions', has_more: false, data };
  });

  app.get<{ Params: { id: string } }>('/v1/charges/:id', async (incoming, reply) => {
    const found = fake.charges.get(incoming.params.id);
    if (!found)
      return reply.code(404).send({
        error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such charge' },
      });
    return found;
  });

  app.get<{ Params: { id: string } }>('/v1/checkout/sessions/:id', async (incoming, reply) => {
    const session = fake.sessions.get(incoming.params.id);
    if (!session)
      return reply.code(404).send({
        error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' },
      });
    return session;
  });

  // The hosted page stand-in: a Pay button that posts back here.
  app.get<{ Params: { id: string } }>('/pay/:id', async (incoming, reply) => {
    const session = fake.sessions.get(incoming.params.id);
    if (!session) return reply.code(404).send('no such session');
    // A whole page (an empty icon, so a browser asks for no /favicon.ico) with the amount and the Pay button.
    return reply
      .type('text/html')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title><link rel="icon" href="data:,"></head><body><form method="post" action="/pay/${session.id}"><p>${session.amount_total} ${session.currency}</p><button>Pay</button></form></body></html>`,
      );
  });
  app.post<{ Params: { id: string } }>('/pay/:id', async (incoming, reply) => {
    const { redirect } = await fake.pay(incoming.params.id);
    return reply.redirect(redirect, 303);
  });

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  fake.url = address;
  return fake;
}

/** Reads a nested value of a qs-parsed form body, e.g. line_items[0][price_data][unit_amount]. */
function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
