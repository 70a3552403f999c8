import { describe, expect, it } from 'vitest';
import { RouteMethods } from './route-methods.js';

describe('RouteMethods', () => {
  it('lists the methods routes take at a concrete path, wildcards and parameters included', () => {
    const routes = new RouteMethods();
    routes.add(['GET', 'HEAD'], '/v1/models');
    routes.add('GET', '/v1/models/*');
    routes.add('POST', '/v1/chat/completions');
    routes.add('PUT', '/api/users/:userId/limits');
    expect(routes.allowedAt('/v1/models')).toEqual(['GET', 'HEAD']);
    expect(routes.allowedAt('/v1/models/meta-llama/Llama-3')).toEqual(['GET']);
    expect(routes.allowedAt('/v1/chat/completions/')).toEqual(['POST']);
    expect(routes.allowedAt('/api/users/usr_1/limits')).toEqual(['PUT']);
    expect(routes.allowedAt('/v1/nothing')).toEqual([]);
  });
});
