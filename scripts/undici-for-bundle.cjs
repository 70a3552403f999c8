// What the gateway's bundle gets for `import ... from 'undici'` (scripts/bundle-gateway.ts, ADR 0014): the dispatchers,
// `request`, the errors, and `FormData` on first use. undici's own entry also loads its fetch, WebSocket, cache and mock
// modules, which read `globalThis.Headers` and so load Node's built-in copy of undici too: about 5 MB of heap for
// code the gateway never calls. The sources and tests import undici's entry as usual.
'use strict';

const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const api = require('undici/lib/api');
const util = require('undici/lib/core/util');
const { getGlobalDispatcher } = require('undici/lib/global');

// As undici's entry does: `dispatcher.request(...)` and the other API methods live on every dispatcher.
Object.assign(Dispatcher.prototype, api);

module.exports = {
  Agent: require('undici/lib/dispatcher/agent'),
  Dispatcher,
  errors: require('undici/lib/core/errors'),
  /** undici's `request(url, options)`: the URL split into origin and path, on `options.dispatcher` or the global one. */
  request(url, options = {}) {
    const parsed = util.parseURL(url);
    const { dispatcher = getGlobalDispatcher(), ...rest } = options;
    return dispatcher.request({
      ...rest,
      origin: parsed.origin,
      path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
      method: rest.method || (rest.body ? 'PUT' : 'GET'),
    });
  },
  get FormData() {
    return require('undici/lib/web/fetch/formdata').FormData;
  },
};
