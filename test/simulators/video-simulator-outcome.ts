// How a simulated video job behaves, chosen by markers in its prompt (both video simulators share them):
//   sim-video-fail        the job fails                    sim-video-filtered     the video is filtered (safety)
//   sim-video-never       the job never finishes           sim-video-foreign-uri  (Veo) the result URI is on another origin
//   sim-video-submit-429 / sim-video-submit-500            the create request answers that status
//   sim-video-poll-429 / sim-video-poll-500                the FIRST poll answers that status, later polls go on normally
//   sim-video-polls-<n>   the job finishes on the n-th poll (else the simulator's pollsUntilDone)

/** The end a simulated job reaches. */
export type VideoOutcomeKind = 'success' | 'failure' | 'content-filtered' | 'never-finishes' | 'foreign-uri';

/** A simulated job's behaviour. */
export interface VideoOutcome {
  kind: VideoOutcomeKind;
  /** status the create request answers with instead of accepting the job */
  submitFailureStatus?: 429 | 500;
  /** status the first poll answers with */
  firstPollFailureStatus?: 429 | 500;
  /** polls after which the job reaches its end; undefined: the simulator's default */
  pollsUntilDone?: number;
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
