import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageJsonPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');

/** How `npm start` launches the gateway: the environment variables it sets before `node`, and Node's flags. */
export interface GatewayLaunch {
  /** variables set on the command line before `node`, e.g. `MALLOC_ARENA_MAX` */
  environment: Record<string, string>;
  nodeFlags: string[];
}

/** The launch of `npm start` (package.json), so the benchmark runs the gateway exactly as users start it. */
export function readGatewayLaunch(): GatewayLaunch {
  const startScript = (JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { scripts: { start: string } }).scripts
    .start;
  const match = /^((?:[A-Z_]+=\S+ )*)node((?: --\S+)*) dist\/gateway\/main\.js start$/.exec(startScript);
  if (!match)
    throw new Error(
      `package.json's start script is not '[NAME=value ...] node [flags] dist/gateway/main.js start': ${startScript}`,
    );
  const environment = Object.fromEntries(words(match[1]!).map(splitAssignment));
  return { environment, nodeFlags: words(match[2]!) };
}

function words(text: string): string[] {
  return text.trim().split(' ').filter(Boolean);
}

/** `NAME=value` as `[NAME, value]`; the value may contain `=`. */
function splitAssignment(assignment: string): [string, string] {
  const equals = assignment.indexOf('=');
  return [assignment.slice(0, equals), assignment.slice(equals + 1)];
}
