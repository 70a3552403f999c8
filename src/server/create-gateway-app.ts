import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createRequestId } from '../core/create-request-id.js';
import { announcesLargeBody } from './announces-large-body.js';
import { authenticateApiKey } from './authenticate-api-key.js';
import { checkBodyContentType } from './check-body-content-type.js';
import { createHttpServerLimits } from './create-http-server-limits.js';
import { createProxyTrust } from './create-proxy-trust.js';
import type { GatewayServices } from './gateway-services.js';
import { handleClientError, installHttpProtocolHandlers } from './handle-client-error.js';
import { answerFrameworkError, installErrorHandlers } from './handle-errors.js';
import { installJsonBodyParser } from './install-json-body-parser.js';
import { limitConnectionsPerAddress } from './limit-connections-per-address.js';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';
import { limitInFlightRequests } from './limit-in-flight-requests.js';
import { limitInFlightPerAddress } from './limit-in-flight-per-address.js';
import { limitInFlightPerUser } from './limit-in-flight-per-user.js';
import { limitUnauthenticatedBodyTime } from './limit-unauthenticated-body-time.js';
import { RouteMethods } from './route-methods.js';
import { serveConsole } from './console/serve-console.js';
import { registerApiRoutes } from './routes/api-routes.js';
import { registerClientProtocolRoutes } from './routes/client-protocol-routes.js';
import { createLazyRequestLogger } from '../observability/lazy-request-logger.js';
import { addAnswerSecurityHeaders } from './answer-security-headers.js';
import { registerReadinessRoute } from './register-readiness-route.js';
import { countInFlightByRouteGroup } from './count-in-flight-by-route-group.js';
import { registerVideoContentRoute } from './routes/video-content-route.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Unix milliseconds when the request arrived */
    receivedAt: number;
  }
}

/** Builds the HTTP app without listening, so tests run it in-process and the CLI and benchmark run it for real. */
export async function createGatewayApp(services: GatewayServices): Promise<FastifyInstance> {
  const trustProxySetting = services.config.trustProxy ?? { kind: 'none' };
  const proxyTrust = createProxyTrust(trustProxySetting);
  const app = Fastify({
    // request.ip, which every per-address limit reads, is the client behind the trusted proxies (GATEWAY_TRUST_PROXY);
    // without any, Fastify's plain request (the socket's address) is kept.
    trustProxy: trustProxySetting.kind === 'none' ? false : proxyTrust,
    // pino's Logger is a FastifyBaseLogger; the cast keeps the app's type the default one every route expects.
    loggerInstance: services.logger as FastifyBaseLogger,
    // Per-request log lines cost CPU on every call; errors are still logged, and debug level logs each request.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: createLazyRequestLogger,
    bodyLimit: services.config.bodyLimitBytes,
    genReqId: () => createRequestId(),
    requestIdHeader: false,
    // limitInFlightRequests answers requests during shutdown, in OpenAI's shape (Fastify's own 503 is not).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    ...createHttpServerLimits(services.config),
    clientErrorHandler: handleClientError,
    frameworkErrors: answerFrameworkError,
    schemaController: { compilersFactory: lazySchemaCompilers },
  });
  installHttpProtocolHandlers(app.server);
  addAnswerSecurityHeaders(app);
  const routeMethods = new RouteMethods();
  app.addHook('onRoute', (route) => routeMethods.add(route.method, route.url));
  const { refusals } = services.metrics;
  countInFlightByRouteGroup(app, services.metrics.inFlight);
  limitConnectionsPerAddress(app, services.config.maxConnectionsPerAddress, proxyTrust, refusals);
  limitInFlightPerAddress(app, services.config.maxInFlightPerAddress, refusals);
  limitInFlightRequests(app, services.config.maxInFlightRequests, refusals);
  // The console (only with the /api it calls) answers browsers' unknown paths before the not-found handler does.
  if (services.api) await serveConsole(app, services.config.consoleDirectory);
  installErrorHandlers(app, routeMethods);
  // `Expect: 100-continue` is answered only once the request got past its onRequest checks (key, balance,
  // limits), so a client that waits for it never sends a body that would be refused.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (request.headers.expect?.toLowerCase() === '100-continue' && !reply.raw.headersSent) reply.raw.writeContinue();
    done(null, payload);
  });
  // Fastify parses text/plain by default; /v1 takes JSON or multipart only, so such bodies get a clear 415.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  limitUnauthenticatedBodyTime(app, services.config.unauthenticatedBodyTimeoutMs);
  app.decorateRequest('receivedAt', 0);

  app.get('/healthz', async () => ({ status: 'ok', revision: services.routing.current.revision }));
  registerReadinessRoute(app, services);
  app.get('/metrics', async (_request, reply) => {
    void reply.header('content-type', services.metrics.registry.contentType);
    const gatewayText = await services.metrics.registry.metrics();
    // The OpenTelemetry GenAI histograms (gen_ai_client_token_usage_bucket, ...) follow the gateway's own metrics.
    const genAiText = services.telemetry ? await services.telemetry.renderPrometheusText() : '';
    return genAiText === '' ? gatewayText : `${gatewayText.trimEnd()}\n${genAiText}`;
  });

  await app.register(async (v1) => {
    v1.addHook('onRequest', async (request, reply) => {
      request.receivedAt = services.clock();
      void reply.header('x-request-id', request.id);
      request.principal = await authenticateApiKey(request, services.routing, request.receivedAt);
      // Before any body is read: a key that may not spend a large body's worth, or a body of the wrong kind, is
      // refused unread. Only POSTs carry bodies and cost money; listing models stays open to a key without balance.
      if (request.method !== 'POST') return;
      if (announcesLargeBody(request))
        await services.accounting.checkBeforeBody({
          principal: request.principal,
          clientIp: request.ip,
          receivedAt: request.receivedAt,
        });
      checkBodyContentType(request);
    });
    // After the process's own cap (app hooks run first): one user's requests hold at most this share of it.
    limitInFlightPerUser(v1, services.config.maxInFlightPerUser, (refusal) => {
      refusals.count('per_user_cap');
      services.accounting.countRefusal(refusal);
    });
    // The route table: each client path and its protocol's handlers (routes/client-protocol-routes.ts).
    await registerClientProtocolRoutes(v1, services);
  });
  // Outside the keyed scope: a signed video URL is fetched with no API key.
  registerVideoContentRoute(app, services);
  await registerApiRoutes(app, services);
  return app;
}
