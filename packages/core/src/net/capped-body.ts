/**
 * Reads a response body into memory, giving up as soon as more than `maxBytes` arrived:
 * the size is counted on the decoded stream, so a small compressed body that inflates
 * past the cap (a "zip bomb") is refused as well. Returns null past the cap, after
 * cancelling the stream so the rest is never downloaded.
 */
export async function readCappedBody(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Not awaited: a server that stopped sending would keep cancel() pending.
      reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
