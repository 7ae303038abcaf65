import type { Dispatcher } from 'undici';
import { ServiceError } from '../errors.js';

/** A response as the fetcher handles it: URL it came from, status, lower-case headers, unread body. */
export interface RawResponse {
  url: URL;
  status: number;
  headers: Record<string, string>;
  body: Dispatcher.ResponseData['body'];
}

/**
 * Stops reading a response body. undici's body emits an AbortError when destroyed before
 * its end; without a listener that error would be uncaught and take the process down.
 */
export function destroyBody(body: { on(event: 'error', fn: () => void): unknown; destroy(): unknown }): void {
  body.on('error', () => {});
  body.destroy();
}

/** A Content-Length over the cap fails at once, before any body byte is read. */
export async function rejectDeclaredOversize(res: RawResponse, maxBytes: number): Promise<void> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    destroyBody(res.body);
    throw new ServiceError('TOO_LARGE', `the target declares ${declared} bytes; the limit is ${maxBytes}`);
  }
}

export async function discard(res: RawResponse): Promise<void> {
  try {
    await res.body.dump({ limit: 64 * 1024 });
  } catch {
    // the socket is dropped instead; nothing to report
  }
}

export function lowerHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function mediaType(headers: Record<string, string>): string | null {
  const value = headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return value ? value : null;
}
