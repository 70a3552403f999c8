import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageJsonPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');

/** The Node flags of `npm start` (package.json), so the benchmark runs the gateway exactly as users start it. */
export function readGatewayNodeFlags(): string[] {
  const startScript = (JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { scripts: { start: string } }).scripts.start;
  const match = /^node((?: --\S+)*) dist\/cli\/main\.js start$/.exec(startScript);
  if (!match) throw new Error(`package.json's start script is not 'node [flags] dist/cli/main.js start': ${startScript}`);
  return match[1]!.trim().split(' ').filter(Boolean);
}
