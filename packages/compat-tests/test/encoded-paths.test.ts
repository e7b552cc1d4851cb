import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capture, type Captured } from "./support/capture.ts";
import { BASE_PATH, BASE_URL, type Handler } from "./support/instances.ts";
import { ratePair, type RatePair, type RateLimitSetup } from "./support/rate-limit-pair.ts";

/**
 * Encoded spellings of a route side by side, with the sign-in limit (3 per 10 s) on: the
 * reference routes on the undecoded path, so `/sign%2Din/email` is 404 there and cannot add
 * password guesses; Latchkey's router decoded it and gave it a counter of its own. Each
 * spelling, then the canonical path, must answer alike on both, and `disabledPaths` must
 * cover what routes.
 */

const hex = (char: string, lower = false): string => {
  const code = `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
  return lower ? code.toLowerCase() : code;
};

/** `/api/auth/sign-in/email` with each unreserved character encoded, upper and lower hex. */
function oneEncoded(): string[] {
  const path = `${BASE_PATH}/sign-in/email`;
  const out: string[] = [];
  for (let i = 0; i < path.length; i++) {
    if (path[i] === "/") continue;
    for (const lower of [false, true]) {
      const spelled = `${path.slice(0, i)}${hex(path[i]!, lower)}${path.slice(i + 1)}`;
      if (!out.includes(spelled)) out.push(spelled);
    }
  }
  return out;
}

const SPELLINGS = [
  ...oneEncoded(),
  `${BASE_PATH}/sign-in%2Femail`,
  `${BASE_PATH}%2Fsign-in/email`,
  `${BASE_PATH}/sign%252Din/email`,
  `${BASE_PATH}/${[..."sign-in"].map((c) => hex(c)).join("")}/email`,
  `${BASE_PATH}/%2e/sign-in/email`,
  `${BASE_PATH}//sign-in/email`,
  `${BASE_PATH}/sign-in/email/`,
  `${BASE_PATH}/sign-in/email//`,
];

const wrongSignIn = (path: string, ip: string): Request =>
  new Request(`${BASE_URL}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password-1" }),
  });

/** Three canonical guesses, one through `spelling`, then one more canonical guess. */
async function burst(handler: Handler, spelling: string, ip: string): Promise<Captured[]> {
  const canonical = `${BASE_PATH}/sign-in/email`;
  const out: Captured[] = [];
  for (const path of [canonical, canonical, spelling, canonical, canonical]) {
    out.push(await capture(await handler(wrongSignIn(path, ip))));
  }
  return out;
}

function scenario(
  title: string,
  setup: RateLimitSetup,
  pins: (spelling: string) => number[] | undefined,
): void {
  describe(title, () => {
    let pair: RatePair;
    beforeAll(async () => {
      pair = await ratePair(setup);
    });
    afterAll(() => pair.close());

    // The reference's memory counters are one module-wide map: every spelling its own address.
    SPELLINGS.forEach((spelling, i) => {
      it(`${spelling}: the same answers in a sign-in burst`, async () => {
        const ip = `198.18.${title.length}.${i + 1}`;
        const reference = await burst(pair.reference, spelling, ip);
        const latchkey = await burst(pair.latchkey, spelling, `198.19.${title.length}.${i + 1}`);
        const pinned = pins(spelling);
        if (pinned)
          expect(
            reference.map((c) => c.status),
            "reference",
          ).toEqual(pinned);
        expect(latchkey).toEqual(reference);
      });
    });
  });
}

const routes = (s: string): boolean =>
  s === `${BASE_PATH}/%2e/sign-in/email` || s === `${BASE_PATH}/sign-in/email`;

scenario("encoded paths under the sign-in limit", {}, (s) => {
  if (routes(s)) return [401, 401, 401, 429, 429];
  // Trailing slashes count on the sign-in counter (both strip them for the key) but route nowhere.
  if (s.endsWith("/")) return [401, 401, 404, 429, 429];
  return [401, 401, 404, 401, 429];
});

scenario(
  "encoded paths with advanced.skipTrailingSlashes",
  { advanced: { skipTrailingSlashes: true } },
  (s) => {
    if (routes(s) || s === `${BASE_PATH}/sign-in/email/`) return [401, 401, 401, 429, 429];
    if (s.endsWith("//")) return [401, 401, 404, 429, 429];
    return undefined;
  },
);

scenario(
  "encoded paths with disabledPaths and skipTrailingSlashes",
  { disabledPaths: ["/sign-in/email"], advanced: { skipTrailingSlashes: true } },
  () => [404, 404, 404, 404, 404],
);
