/** The user every figure works with, and the credentials its sign-up returned. */
export interface SeededUser {
  email: string;
  password: string;
  /** `name=value` pairs of every Set-Cookie, ready for a Cookie header. */
  cookie: string;
  /** The `set-auth-token` header, when the server runs the bearer plugin. */
  bearer: string | null;
  /** A key of the user, when the server runs the api-key plugin (sessions from `x-api-key`). */
  apiKey: string | null;
}

/**
 * Signs one user up through HTTP, checks that its cookie (and Bearer token) open a session, and
 * returns them; with `apiKey`, also creates a key for it and checks that the key opens one.
 */
export async function seedUser(baseURL: string, { apiKey = false }: { apiKey?: boolean } = {}): Promise<SeededUser> {
  const email = "bench-user@example.com";
  const password = "bench-password-123";
  const res = await fetch(`${baseURL}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseURL },
    body: JSON.stringify({ name: "Bench User", email, password }),
  });
  if (res.status !== 200) throw new Error(`seed sign-up answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((header) => header.split(";", 1)[0])
    .join("; ");
  if (!cookie) throw new Error("seed sign-up set no cookie");
  const bearer = res.headers.get("set-auth-token");
  // A get-session figure that answers `null` would measure the wrong path: check first.
  await expectSession(baseURL, { cookie }, email);
  if (bearer) await expectSession(baseURL, { authorization: `Bearer ${bearer}` }, email);
  const key = apiKey ? await createApiKey(baseURL, cookie) : null;
  if (key) await expectSession(baseURL, { "x-api-key": key }, email);
  return { email, password, cookie, bearer, apiKey: key };
}

/** `POST /api-key/create` as the signed-in user; the plain key it answers. */
async function createApiKey(baseURL: string, cookie: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/api-key/create`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseURL, cookie },
    body: JSON.stringify({ name: "bench" }),
  });
  const body = (await res.json()) as { key?: string };
  if (res.status !== 200 || !body.key) throw new Error(`api-key create answered ${res.status}: ${JSON.stringify(body)}`);
  return body.key;
}

/** Throws unless `GET /get-session` with `headers` answers the session of `email`. */
export async function expectSession(
  baseURL: string,
  headers: Record<string, string>,
  email: string,
): Promise<void> {
  const check = await fetch(`${baseURL}/api/auth/get-session`, { headers });
  const session = (await check.json()) as { user?: { email?: string } } | null;
  if (check.status !== 200 || session?.user?.email !== email) {
    throw new Error(
      `get-session with ${Object.keys(headers).join(", ")} answered ${check.status} ${JSON.stringify(session)}`,
    );
  }
}
