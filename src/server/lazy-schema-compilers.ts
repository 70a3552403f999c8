import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type SchemaCompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type ValidatorFactory = NonNullable<SchemaCompilersFactory['buildValidator']>;
type SerializerFactory = NonNullable<SchemaCompilersFactory['buildSerializer']>;
/** Fastify's validator factory is typed as a union of two function types; this is the one signature it is called with. */
type BuildValidator = (...parameters: Parameters<ValidatorFactory>) => ReturnType<ValidatorFactory>;

// Resolved from Fastify's own folder, as Fastify resolves them: they are its dependencies, not the gateway's.
const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
let validatorFactory: BuildValidator | undefined;
let serializerFactory: SerializerFactory | undefined;

/**
 * Fastify's default schema compilers (Ajv and fast-json-stringify), loaded the first time a route schema needs one
 * rather than when the app is built. The gateway validates with zod and declares no route schemas, and the two
 * compilers kept 1.25 MB of heap alive from the start (measured on a bare Fastify app), which the old generation's
 * growth doubles under load.
 */
export const lazySchemaCompilers: SchemaCompilersFactory = {
  buildValidator: ((...parameters: Parameters<ValidatorFactory>) => {
    validatorFactory ??= (requireFromFastify('@fastify/ajv-compiler') as () => BuildValidator)();
    return validatorFactory(...parameters);
  }) as ValidatorFactory,
  buildSerializer: (...parameters: Parameters<SerializerFactory>) => {
    serializerFactory ??= (requireFromFastify('@fastify/fast-json-stringify-compiler') as () => SerializerFactory)();
    return serializerFactory(...parameters);
  },
};
