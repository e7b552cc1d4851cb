import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPair, jsonPost, url, type Pair } from "./support/instances.ts";
import { seedFixture, type Fixture } from "./wire-diff/fixture.ts";

/**
 * `Response.statusText` of the in-process handler. @hono/node-server does not forward it
 * (Node writes its own reason phrase), but runtimes that serve the Response as is do.
 */
let pair: Pair;
let fixture: Fixture;
beforeAll(async () => {
  pair = await createPair();
  fixture = await seedFixture(pair);
});
afterAll(() => pair.close());

const cases: Array<{
  name: string;
  request: (f: Fixture) => Request;
  reference: string;
  knownDifference?: string;
}> = [
  { name: "200 /ok", request: () => new Request(url("/ok")), reference: "" },
  {
    name: "401 wrong password",
    request: (f) => jsonPost("/sign-in/email", { email: f.email, password: "wrong-password" }),
    reference: "UNAUTHORIZED",
  },
  {
    name: "400 INVALID_EMAIL",
    request: () => jsonPost("/sign-in/email", { email: "nope", password: "password-123" }),
    reference: "BAD_REQUEST",
  },
  {
    name: "400 PASSWORD_TOO_SHORT",
    request: () => jsonPost("/sign-up/email", { name: "A", email: "a@example.com", password: "short" }),
    reference: "BAD_REQUEST",
  },
  {
    name: "422 duplicate email",
    request: (f) => jsonPost("/sign-up/email", { name: "A", email: f.email, password: "password-123" }),
    reference: "UNPROCESSABLE_ENTITY",
  },
  { name: "404 unknown route", request: () => new Request(url("/nope")), reference: "Not Found" },
  {
    name: "400 VALIDATION_ERROR",
    request: () => jsonPost("/sign-up/email", {}),
    // better-call builds validation errors with a numeric status, so the reference's text is "400".
    reference: "400",
  },
];

describe("statusText of the in-process response", () => {
  for (const c of cases) {
    it(c.knownDifference ? `${c.name} [known difference: ${c.knownDifference}]` : c.name, async () => {
      const request = c.request(fixture);
      const reference = await pair.reference(request.clone());
      const latchkey = await pair.latchkey(request.clone());
      expect(reference.statusText).toBe(c.reference);
      expect(latchkey.status).toBe(reference.status);
      if (c.knownDifference)
        expect(latchkey.statusText, "the difference is gone: remove the mark").not.toBe(reference.statusText);
      else expect(latchkey.statusText).toBe(reference.statusText);
    });
  }
});
