import { describe, expect, it } from 'vitest';
import { OutcomeWindow } from './outcome-window.js';

describe('OutcomeWindow', () => {
  it('counts successes and failures inside the window', () => {
    const window = new OutcomeWindow(10_000);
    window.record(true, 0);
    window.record(false, 500);
    window.record(true, 9_000);
    expect(window.countsAt(9_500)).toEqual({ successes: 1, failures: 2 });
  });

  it('slides: outcomes older than the window stop counting, one bucket (a tenth) at a time', () => {
    const window = new OutcomeWindow(10_000);
    window.record(true, 0);
    window.record(true, 5_000);
    expect(window.countsAt(9_999)).toEqual({ successes: 0, failures: 2 });
    expect(window.countsAt(10_000)).toEqual({ successes: 0, failures: 1 });
    expect(window.countsAt(15_000)).toEqual({ successes: 0, failures: 0 });
  });

  it('reuses a bucket once it has left the window, so its size stays constant', () => {
    const window = new OutcomeWindow(10_000);
    for (let time = 0; time < 100_000; time += 100) window.record(time % 200 === 0, time);
    expect(window.countsAt(99_900)).toEqual({ successes: 50, failures: 50 });
  });

  it('forgets everything on clear', () => {
    const window = new OutcomeWindow(10_000);
    window.record(true, 1_000);
    window.clear();
    expect(window.countsAt(1_000)).toEqual({ successes: 0, failures: 0 });
  });
});
