// The least the wrk comparison needs of a process in the middle: its pid (CPU and memory come from /proc) and a way to stop it.

/** A running process whose resources are measured; a BenchProcess is one. */
export interface MeasuredProcess {
  name: string;
  pid: number;
  /** scheme, host and port it listens on */
  url: string;
  stop(): Promise<void>;
}
