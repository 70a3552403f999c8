import type { FastifyInstance } from 'fastify';
import { vendorPresets } from '../../routing/vendor-presets.js';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import type { ApiRouteContext } from './api-routes.js';

/** GET /api/channel-presets for administrators: the vendor presets a channel may name, with their protocol and base URL. */
export function registerApiChannelPresetRoutes(app: FastifyInstance, _context: ApiRouteContext): void {
  app.get('/channel-presets', async (request) => {
    requireAdmin(request.apiCaller);
    return {
      data: vendorPresets.map((preset) => ({
        name: preset.name,
        protocol: preset.protocol,
        baseUrl: preset.baseUrl,
        ownedBy: preset.ownedBy,
      })),
    };
  });
}
