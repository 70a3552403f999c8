/** What the gateway process seeded, printed on its `READY` line. */
export interface GatewayProcessSeed {
  /** e.g. `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** a key whose user has a large balance */
  fundedKey: string;
  /** a key whose user has no balance at all */
  brokeKey: string;
  /** a console user that can sign in with POST /api/auth/login */
  consoleEmail: string;
  consolePassword: string;
}
