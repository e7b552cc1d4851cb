import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capture } from "./support/capture.ts";
import { createPair, url, type Pair } from "./support/instances.ts";
import { sendBoth } from "./support/send-both.ts";
import { seedFixture, type Fixture } from "./wire-diff/fixture.ts";
import { accountCases } from "./wire-diff/account.cases.ts";
import { emailFlowTables } from "./wire-diff/email-flows.cases.ts";
import { originCases, originOffCases } from "./wire-diff/origin.cases.ts";
import { routingCases } from "./wire-diff/routing.cases.ts";
import { sessionCases } from "./wire-diff/session.cases.ts";
import { signInCases } from "./wire-diff/sign-in.cases.ts";
import { signUpCases } from "./wire-diff/sign-up.cases.ts";
import { storedStateCases } from "./wire-diff/stored-state.cases.ts";
import { transportCases } from "./wire-diff/transport.cases.ts";
import { runWireCases } from "./wire-diff/run-cases.ts";

runWireCases("wire: POST /sign-up/email", signUpCases);
runWireCases("wire: POST /sign-in/email", signInCases);
runWireCases("wire: sessions and sign-out", sessionCases);
runWireCases("wire: stored state changed underneath", storedStateCases);
runWireCases("wire: body parsing and content types", transportCases);
runWireCases("wire: routing", routingCases);
runWireCases("wire: account routes", accountCases);
for (const table of emailFlowTables) runWireCases(table.title, table.cases, table.options);
runWireCases("wire: origin checks on", originCases, { originChecks: true });
runWireCases("wire: origin checks off under NODE_ENV=test", originOffCases);

// Spec-mandated differences: each side's own behaviour is asserted (DIVERGENCES.md).
describe("wire: spec divergences", () => {
  let pair: Pair;
  let fixture: Fixture;
  beforeAll(async () => {
    pair = await createPair();
    fixture = await seedFixture(pair);
  });
  afterAll(() => pair.close());

  it("POST /get-session: the reference answers 405, Latchkey serves it like GET", async () => {
    const post = new Request(url("/get-session"), { method: "POST", headers: { cookie: fixture.cookie } });
    const { reference, latchkey } = await sendBoth(pair, post);
    expect(reference.status).toBe(405);
    expect(reference.body).toEqual({
      message: "POST method requires deferSessionRefresh to be enabled in session config",
      code: "METHOD_NOT_ALLOWED_DEFER_SESSION_REQUIRED",
    });
    // Latchkey: the same answer as the reference's GET.
    const get = await capture(
      await pair.reference(new Request(url("/get-session"), { headers: { cookie: fixture.cookie } })),
    );
    expect(latchkey.status).toBe(200);
    expect(latchkey.body).toEqual(get.body);
    expect(latchkey.headers["cache-control"]).toBe("no-store");
  });

  it("POST /get-session without a session: the reference answers 405, Latchkey null", async () => {
    const { reference, latchkey } = await sendBoth(
      pair,
      new Request(url("/get-session"), { method: "POST" }),
    );
    expect(reference.status).toBe(405);
    expect(latchkey.status).toBe(200);
    expect(latchkey.bodyKind).toBe("json");
    expect(latchkey.body).toBeNull();
  });

  it("GET /get-session with a Bearer value: without bearer() the reference answers null; Latchkey the session for the signed value only", async () => {
    const signed = decodeURIComponent(fixture.cookie.slice(fixture.cookie.indexOf("=") + 1));
    const bearer = new Request(url("/get-session"), { headers: { authorization: `Bearer ${signed}` } });
    const { reference, latchkey } = await sendBoth(pair, bearer);
    expect(reference.status).toBe(200);
    expect(reference.body).toBeNull();
    expect(latchkey.status).toBe(200);
    expect(latchkey.body).toMatchObject({
      session: { token: fixture.token },
      user: { email: fixture.email },
    });
    const bare = new Request(url("/get-session"), { headers: { authorization: `Bearer ${fixture.token}` } });
    const both = await sendBoth(pair, bare);
    expect(both.reference.body).toBeNull();
    expect(both.latchkey.body).toBeNull();
  });
});
