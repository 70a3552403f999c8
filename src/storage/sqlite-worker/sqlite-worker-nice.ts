/**
 * The SQLite worker thread's nice value on Linux (ADR 0014). CFS weighs nice 10 at about a tenth of the event loop's
 * nice 0, which still leaves the worker several times the CPU a saturated gateway's settlement needs (about 7 % of a
 * core at 7,500 requests a second), and the worker takes every moment the event loop leaves idle.
 */
export const sqliteWorkerNice = 10;
