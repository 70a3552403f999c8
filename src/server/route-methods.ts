import FindMyWay from 'find-my-way';

/** An HTTP method as find-my-way names it. */
type RouteMethod = FindMyWay.HTTPMethod;

/**
 * Which methods the app's routes take at a path, so a request with another method gets 405 and an `Allow`
 * header instead of a 404. Fastify's router answers only "this method at this path"; this second router,
 * fed from the `onRoute` hook, answers "any method at this path".
 */
export class RouteMethods {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true });
  private readonly methods = new Set<RouteMethod>();

  /** Records a route as Fastify registers it (`url` includes any plugin prefix). */
  add(method: string | string[], url: string): void {
    for (const name of Array.isArray(method) ? method : [method]) {
      const routeMethod = name.toUpperCase() as RouteMethod;
      if (this.router.hasRoute(routeMethod, url)) continue;
      this.router.on(routeMethod, url, () => undefined);
      this.methods.add(routeMethod);
    }
  }

  /** The methods some route takes at `path` (no query string), sorted; empty for an unknown path. */
  allowedAt(path: string): string[] {
    const allowed: string[] = [];
    for (const method of this.methods) {
      if (this.router.find(method, path) !== null) allowed.push(method);
    }
    return allowed.sort();
  }
}
