/** Flags about the main program (its loaders, its inline code) or its output files, each followed by a value unless written with `=`. */
const droppedFlagsWithValue = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--input-type', '--eval', '-e', '--print', '-p', '--cpu-prof-dir', '--cpu-prof-name', '--cpu-prof-interval', '--heap-prof-dir', '--heap-prof-name', '--heap-prof-interval']);
/** Flags without a value that describe the main program's run, not a thread's. */
const droppedFlags = new Set(['--cpu-prof', '--heap-prof']);

/**
 * The process's Node flags a worker thread should run with: the V8 and memory ones (e.g. `npm start`'s
 * `--max-semi-space-size=4`), without the main program's loaders and inline code (tsx's `--import` would start a
 * loader thread per worker; `--input-type` fails in a worker) or its profile files (a worker writing `--cpu-prof-name`
 * would overwrite the main thread's profile).
 */
export function selectWorkerExecArgv(execArgv: readonly string[]): string[] {
  const selected: string[] = [];
  for (let index = 0; index < execArgv.length; index += 1) {
    const flag = execArgv[index] as string;
    const name = flag.split('=', 1)[0] as string;
    if (droppedFlags.has(flag)) continue;
    if (droppedFlagsWithValue.has(name)) {
      if (name === flag) index += 1;
      continue;
    }
    selected.push(flag);
  }
  return selected;
}
