/**
 * `fetch` for the seeding and check requests sent after a long idle spell (bulk SQL inserts):
 * the server's keep-alive timeout (5 s) may close the pooled socket just as undici reuses it,
 * which fails the request with "other side closed" before the server read it. Such a failure
 * is retried once, on a new connection; any other error or answer is the caller's.
 */
export async function seedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as Error).cause;
    if (!(cause instanceof Error) || !/other side closed|ECONNRESET/.test(`${cause.message} ${(cause as { code?: string }).code ?? ""}`))
      throw error;
    return fetch(url, init);
  }
}
