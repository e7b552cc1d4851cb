import type autocannon from "autocannon";
import type { SeededUser } from "./seed.js";

/** The endpoints the bench loads. */
export type FigureName = "get-session" | "get-session-bearer" | "get-session-api-key" | "sign-in" | "sign-up";

// Unique across warm-ups, runs and both servers of one process: sign-up refuses a known email.
let signUps = 0;
const runId = Date.now().toString(36);

/** The autocannon request settings of `figure` against a server whose user is `user`. */
export function figureRequest(
  figure: FigureName,
  baseURL: string,
  user: SeededUser,
): Partial<autocannon.Options> {
  const json = { "content-type": "application/json", origin: baseURL };
  switch (figure) {
    case "get-session":
      return {
        method: "GET",
        requests: [{ path: "/api/auth/get-session", headers: { cookie: user.cookie } }],
      };
    case "get-session-bearer":
      if (!user.bearer) throw new Error("the server sent no set-auth-token header: is the bearer plugin on?");
      return {
        method: "GET",
        requests: [{ path: "/api/auth/get-session", headers: { authorization: `Bearer ${user.bearer}` } }],
      };
    case "get-session-api-key":
      if (!user.apiKey) throw new Error("the bench user has no API key: is the api-key plugin on?");
      return {
        method: "GET",
        requests: [{ path: "/api/auth/get-session", headers: { "x-api-key": user.apiKey } }],
      };
    case "sign-in":
      return {
        method: "POST",
        requests: [
          {
            path: "/api/auth/sign-in/email",
            headers: json,
            body: JSON.stringify({ email: user.email, password: user.password }),
          },
        ],
      };
    case "sign-up":
      return {
        method: "POST",
        requests: [
          {
            path: "/api/auth/sign-up/email",
            headers: json,
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                name: "Load User",
                email: `load-${runId}-${++signUps}@example.com`,
                password: user.password,
              }),
            }),
          },
        ],
      };
  }
}

/** get-session spread over many sessions: request i carries cookie i mod n (autocannon's setupRequest). */
export function roundRobinGetSession(cookies: readonly string[]): Partial<autocannon.Options> {
  let next = 0;
  return {
    method: "GET",
    requests: [
      {
        path: "/api/auth/get-session",
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, cookie: cookies[next++ % cookies.length] ?? "" },
        }),
      },
    ],
  };
}
