// Before anything is measured, checks that a path answers correctly: a path that fails fast must not look fast.
import { request } from 'undici';
import type { ComparisonPath } from './comparison-paths.js';

/** The mock upstream's last content word: present in a complete answer, streamed or not. */
const lastContentWord = 'word20';

/** Sends each body once and throws unless the answer is a 200 with the mock's whole content (and [DONE] for streams). */
export async function verifyPathAnswers(
  path: ComparisonPath,
  bodies: { plain: string; streamed: string; paced: string },
): Promise<void> {
  const plain = await post(path, bodies.plain);
  expectAnswer(
    path,
    'non-streamed',
    plain,
    plain.contentType.startsWith('application/json') && plain.text.includes('"chat.completion"'),
  );
  for (const [kind, body] of [
    ['streamed', bodies.streamed],
    ['paced streamed', bodies.paced],
  ] as const) {
    const streamed = await post(path, body);
    const complete =
      streamed.contentType.startsWith('text/event-stream') &&
      streamed.text.includes('chat.completion.chunk') &&
      streamed.text.trimEnd().endsWith('data: [DONE]');
    expectAnswer(path, kind, streamed, complete);
  }
}

async function post(
  path: ComparisonPath,
  body: string,
): Promise<{ status: number; contentType: string; text: string }> {
  const response = await request(path.chatUrl, { method: 'POST', headers: path.headers, body });
  return {
    status: response.statusCode,
    contentType: String(response.headers['content-type'] ?? ''),
    text: await response.body.text(),
  };
}

function expectAnswer(
  path: ComparisonPath,
  kind: string,
  answer: { status: number; text: string },
  wellFormed: boolean,
): void {
  if (answer.status === 200 && wellFormed && answer.text.includes(lastContentWord)) return;
  throw new Error(`${path.label} gave a wrong ${kind} answer (status ${answer.status}): ${answer.text.slice(0, 500)}`);
}
