import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UpstreamAnswerDeadline } from './upstream-answer-deadline.js';

/** A deadline that never passes on its own in a test: `pass()` stands in for its timer. */
function deadlineWithCuts(): { deadline: UpstreamAnswerDeadline; cuts: number[] } {
  const cuts: number[] = [];
  const deadline = new UpstreamAnswerDeadline(60_000, () => cuts.push(1));
  return { deadline, cuts };
}

describe('UpstreamAnswerDeadline', () => {
  it('destroys the body being read with a body-timeout error when it passes, and says so once', async () => {
    const { deadline, cuts } = deadlineWithCuts();
    const body = new PassThrough();
    body.write('{"id":');
    deadline.watch(body);
    const failed = new Promise<unknown>((resolve) => body.on('error', resolve));
    deadline.pass();
    deadline.pass();
    const error = await failed;
    expect(body.destroyed).toBe(true);
    expect(error).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
    expect(cuts).toHaveLength(1);
    deadline.clear();
  });

  it('destroys a body that came after it passed at once, with no unhandled error when nobody reads it', async () => {
    const { deadline, cuts } = deadlineWithCuts();
    deadline.pass();
    const body = new PassThrough();
    // No 'error' listener of the test's own: an unhandled one would fail the run.
    deadline.watch(body);
    await new Promise((resolve) => body.on('close', resolve));
    expect(body.errored).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
    expect(cuts).toHaveLength(1);
    deadline.clear();
  });

  it('leaves a body that ended, or a deadline that was cleared, alone', async () => {
    const { deadline, cuts } = deadlineWithCuts();
    const body = new PassThrough();
    deadline.watch(body);
    body.end('{}');
    body.resume();
    await new Promise((resolve) => body.on('end', resolve));
    deadline.pass();
    expect(body.errored).toBeNull();
    const cleared = deadlineWithCuts();
    const other = new PassThrough();
    cleared.deadline.watch(other);
    cleared.deadline.clear();
    cleared.deadline.pass();
    expect(other.destroyed).toBe(false);
    expect([...cuts, ...cleared.cuts]).toHaveLength(0);
    deadline.clear();
  });

  it('shortens the headers timeout to the deadline, and stands for it when the headers timeout is off', () => {
    const { deadline } = deadlineWithCuts();
    expect(deadline.headersTimeoutMs(300_000)).toBe(60_000);
    expect(deadline.headersTimeoutMs(1_000)).toBe(1_000);
    expect(deadline.headersTimeoutMs(0)).toBe(60_000);
    deadline.clear();
  });
});
