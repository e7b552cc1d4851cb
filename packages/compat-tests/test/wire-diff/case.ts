import type { Captured } from "../support/capture.ts";
import type { ParsedCookie } from "../support/cookies.ts";
import type { SqliteConnection } from "../support/sqlite.ts";
import type { Fixture } from "./fixture.ts";

/** Parts of a captured response a known difference may touch. */
export type KnownDifferencePart = "status" | "headers" | "body" | "bodyKind" | "setCookie";

/** One scripted request, sent to both implementations. */
export interface WireCase {
  name: string;
  /** Builds the request (cloned for each side) from the seeded fixture. */
  request: (fixture: Fixture) => Request;
  /**
   * What the reference answers, pinned so that a broken harness (say, both sides answering
   * 404 because of a wrong path) cannot make the two sides trivially equal.
   */
  expected: {
    status: number;
    code?: string;
    /** Names of the cookies set (none when absent). */
    cookies?: string[];
    /** Matched against the reference's JSON body (`toMatchObject`; `null` exactly). */
    body?: Record<string, unknown> | null;
    /** Matched against the reference's compared headers. */
    headers?: Partial<Captured["headers"]>;
    /** Exact attributes of the named cookies. */
    cookieAttributes?: Record<string, ParsedCookie["attributes"]>;
  };
  /**
   * Changes the stored state first (say, expires the seeded session); undone after the case.
   * Runs on the tests' own connection, as an operator or another process would.
   */
  prepare?: (db: SqliteConnection, fixture: Fixture) => void;
  /**
   * Compares this view of the body instead of the body itself, for responses made for
   * humans (the HTML error page) where markup is not part of the contract.
   */
  bodyView?: (body: unknown) => unknown;
  /** Bad input: neither side may add or remove a row in any core table. */
  noWrites?: boolean;
  /**
   * A difference from the reference that is not a recorded divergence, reported to the core
   * owners: the listed parts of the response must still differ and all others must match,
   * so the case fails (and the mark must go) once Latchkey matches the reference.
   */
  knownDifference?: { note: string; parts: KnownDifferencePart[] };
}
