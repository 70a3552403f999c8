// How a simulated video job behaves, chosen by markers in its prompt (both video simulators share them):
//   sim-video-fail        the job fails                    sim-video-filtered     the video is filtered (safety)
//   sim-video-never       the job never finishes           sim-video-foreign-uri  (Veo) the result URI is on another origin
//   sim-video-submit-429 / sim-video-submit-500            the create request answers that status
//   sim-video-poll-429 / sim-video-poll-500                the FIRST poll answers that status, later polls go on normally
//   sim-video-polls-<n>   the job finishes on the n-th poll (else the simulator's pollsUntilDone)
//   sim-video-fail-quoting-key   the job fails with a message quoting the channel's key and host (must be redacted)
//   sim-video-vanish      after the first status read the vendor forgets the job (later polls answer 404)
//   sim-video-download-<fault>   the finished video's download misbehaves (VideoDownloadFault); Veo's download always
//                         redirects to the signed storage origin (video-simulator-signed-storage.ts), Sora's only
//                         for `redirect` and the faults served there

/** The end a simulated job reaches. */
export type VideoOutcomeKind = 'success' | 'failure' | 'content-filtered' | 'never-finishes' | 'foreign-uri';

/**
 * How a finished video's download misbehaves: `redirect` (Sora) 302 to the signed storage; `no-location` 302 without
 * Location; `loop` redirects forever; `404` / `500` the vendor's status; `break` the body is cut halfway (socket
 * destroyed), every time; `break-once` only the first time; `oversize` a body over any test cap with its
 * Content-Length; `oversize-unannounced` the same, chunked, without one.
 */
export type VideoDownloadFault =
  'redirect' | 'no-location' | 'loop' | '404' | '500' | 'break' | 'break-once' | 'oversize' | 'oversize-unannounced';

const downloadFaults: readonly VideoDownloadFault[] = [
  'redirect',
  'no-location',
  'loop',
  '404',
  '500',
  'break-once',
  'break',
  'oversize-unannounced',
  'oversize',
];

/** A simulated job's behaviour. */
export interface VideoOutcome {
  kind: VideoOutcomeKind;
  /** status the create request answers with instead of accepting the job */
  submitFailureStatus?: 429 | 500;
  /** status the first poll answers with */
  firstPollFailureStatus?: 429 | 500;
  /** polls after which the job reaches its end; undefined: the simulator's default */
  pollsUntilDone?: number;
  /** a failure's message quotes the channel's key and host */
  failureQuotesKey?: boolean;
  /** the vendor forgets the job after the first status read */
  vanishes?: boolean;
  /** how the download misbehaves; undefined: it does not */
  downloadFault?: VideoDownloadFault;
}

/** Reads the markers of a prompt. */
export function readVideoOutcome(prompt: string): VideoOutcome {
  const outcome: VideoOutcome = { kind: readKind(prompt) };
  const submit = /sim-video-submit-(429|500)/.exec(prompt);
  if (submit) outcome.submitFailureStatus = Number(submit[1]) as 429 | 500;
  const poll = /sim-video-poll-(429|500)/.exec(prompt);
  if (poll) outcome.firstPollFailureStatus = Number(poll[1]) as 429 | 500;
  const polls = /sim-video-polls-(\d+)/.exec(prompt);
  if (polls) outcome.pollsUntilDone = Math.max(1, Number(polls[1]));
  if (prompt.includes('sim-video-fail-quoting-key')) outcome.failureQuotesKey = true;
  if (prompt.includes('sim-video-vanish')) outcome.vanishes = true;
  // Longest names first: `break-once` before `break`, `oversize-unannounced` before `oversize`.
  const fault = downloadFaults.find((candidate) => prompt.includes(`sim-video-download-${candidate}`));
  if (fault) outcome.downloadFault = fault;
  return outcome;
}

function readKind(prompt: string): VideoOutcomeKind {
  if (prompt.includes('sim-video-fail')) return 'failure';
  if (prompt.includes('sim-video-filtered')) return 'content-filtered';
  if (prompt.includes('sim-video-never')) return 'never-finishes';
  if (prompt.includes('sim-video-foreign-uri')) return 'foreign-uri';
  return 'success';
}

/** Where a job stands after `polls` status reads: waiting, running with a percentage, or at its end. */
export type VideoJobStage = { stage: 'queued' } | { stage: 'running'; progress: number } | { stage: 'done' };

/** The stage after `polls` reads when the job ends on read number `pollsUntilDone` (never, for a job that never finishes). */
export function videoJobStage(polls: number, pollsUntilDone: number, outcome: VideoOutcome): VideoJobStage {
  if (polls === 0) return { stage: 'queued' };
  if (outcome.kind === 'never-finishes') return { stage: 'running', progress: Math.min(99, polls) };
  if (polls >= pollsUntilDone) return { stage: 'done' };
  return { stage: 'running', progress: Math.floor((100 * polls) / pollsUntilDone) };
}
