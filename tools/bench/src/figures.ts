import type autocannon from "autocannon";
import type { SeededUser } from "./seed.js";

/** The figures the bench reports, in the order it runs them (sign-up last: it grows the tables). */
export const FIGURES = ["get-session", "sign-in", "sign-up"] as const;

/** One measured endpoint. */
export type FigureName = (typeof FIGURES)[number];

/** Whether every request of the figure costs one scrypt, so the machine's scrypt limit caps it. */
export function hashesPassword(figure: FigureName): boolean {
  return figure !== "get-session";
}

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
