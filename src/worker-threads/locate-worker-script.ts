import { bundleWorkerScript } from './bundle-worker-script.js';

/**
 * The worker script `scriptName` (without extension) beside the module at `callerModuleUrl`: in a build the compiled
 * `.js` file; from TypeScript sources (vitest, tsx) a bundle of the `.ts` file, since workers do not get tsx.
 */
export function locateWorkerScript(callerModuleUrl: string, scriptName: string): URL {
  return callerModuleUrl.endsWith('.ts')
    ? bundleWorkerScript(new URL(`./${scriptName}.ts`, callerModuleUrl))
    : new URL(`./${scriptName}.js`, callerModuleUrl);
}
