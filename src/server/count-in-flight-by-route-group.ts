import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { InFlightCounts } from '../observability/in-flight-counts.js';
import { callWhenResponseEnds } from './call-when-response-ends.js';
import { routeGroupOf } from './route-group-of.js';

/**
 * Keeps `counts` current for `/metrics`: each request counts under its route group from its first byte (`onRequest`)
 * until its response ends however it ends, and each open connection under the group of its latest request (`none`
 * before the first). The group of a route pattern is worked out once per pattern.
 */
export function countInFlightByRouteGroup(app: FastifyInstance, counts: InFlightCounts): void {
  const groupOfPattern = new Map<string | undefined, string>();
  const groupOfSocket = new WeakMap<Socket, string>();
  app.server.on('connection', (socket: Socket) => {
    groupOfSocket.set(socket, 'none');
    counts.changeConnections('none', 1);
    socket.once('close', () => {
      counts.changeConnections(groupOfSocket.get(socket) ?? 'none', -1);
    });
  });
  app.addHook('onRequest', (request, reply, done) => {
    const pattern = request.routeOptions.url;
    let group = groupOfPattern.get(pattern);
    if (group === undefined) {
      group = routeGroupOf(pattern);
      groupOfPattern.set(pattern, group);
    }
    const socket = request.raw.socket;
    const socketGroup = groupOfSocket.get(socket);
    // Sockets the server did not announce (in-process injection) are not connections.
    if (socketGroup !== undefined && socketGroup !== group) {
      counts.changeConnections(socketGroup, -1);
      counts.changeConnections(group, 1);
      groupOfSocket.set(socket, group);
    }
    counts.changeRequests(group, 1);
    const requestGroup = group;
    callWhenResponseEnds(request, reply, () => counts.changeRequests(requestGroup, -1));
    done();
  });
}
