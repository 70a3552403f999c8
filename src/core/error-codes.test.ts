import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCodes } from './error-codes.js';

const apiDocument = readFileSync(new URL('../../docs/API.md', import.meta.url), 'utf8');

function documentedRows(): string[] {
  const table = apiDocument.split('<!-- error-table:start -->')[1]?.split('<!-- error-table:end -->')[0] ?? '';
  return table.split('\n').filter((line) => /^\| \d{3} \|/.test(line));
}

describe('error registry and docs/API.md', () => {
  it('documents every registry code with its status, type and description, and nothing else', () => {
    const expected = Object.entries(errorCodes).map(
      ([code, definition]) =>
        `| ${definition.status} | \`${code}\` | \`${definition.type}\` | ${definition.description} |`,
    );
    expect(documentedRows().sort()).toEqual(expected.sort());
  });

  it("uses the spec's statuses for the spec's codes", () => {
    expect(errorCodes.invalid_request_error.status).toBe(400);
    expect(errorCodes.invalid_api_key.status).toBe(401);
    expect(errorCodes.model_not_found.status).toBe(404);
    expect(errorCodes.insufficient_quota.status).toBe(429);
    expect(errorCodes.server_error.status).toBe(500);
    expect(errorCodes.service_unavailable.status).toBe(503);
  });
});
