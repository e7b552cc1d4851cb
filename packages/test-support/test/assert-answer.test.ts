import { describe, expect, it } from "vitest";
import { assertAnswer } from "../src/bad-input/battery.ts";
import { OVERSIZED_MARK } from "../src/bad-input/body-cases.ts";
import type { ClientAnswer } from "../src/index.ts";

const route = { method: "POST", path: "/p" };

function got(status: number, body: unknown, headers: Record<string, string> = {}): ClientAnswer {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const response = new Response(text || null, { status, headers });
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { response, status, headers: response.headers, text, json };
}

describe("the battery's rules for one answer", () => {
  it("accept a 4xx with a JSON code, a 2xx, and a redirect with a Location", () => {
    assertAnswer(got(400, { code: "VALIDATION_ERROR", message: "m" }), route, {});
    assertAnswer(got(200, { ok: true }), route, {});
    assertAnswer(got(302, undefined, { location: "/error" }), route, {});
  });

  it("refuse a 5xx, a 4xx without a code, a bare 4xx and a redirect without a Location", () => {
    expect(() => assertAnswer(got(500, undefined), route, {})).toThrow(/never a 5xx/);
    expect(() => assertAnswer(got(400, { message: "m" }), route, {})).toThrow(/JSON code/);
    expect(() => assertAnswer(got(404, undefined), route, {})).toThrow(/JSON code/);
    expect(() => assertAnswer(got(302, undefined), route, {})).toThrow(/Location/);
  });

  it("let a nonJSON route answer a bare 4xx, and code: null a message-only body", () => {
    assertAnswer(got(404, undefined), { ...route, nonJSON: true }, {});
    assertAnswer(got(400, { message: "invalid id token" }), route, {
      code: null,
      message: "invalid id token",
    });
    expect(() => assertAnswer(got(400, "oops"), route, { code: null })).toThrow(/JSON message/);
  });

  it("hold an answer to the expected status, code and message", () => {
    assertAnswer(got(413, { code: "PAYLOAD_TOO_LARGE" }), route, {
      status: [400, 413],
      code: "PAYLOAD_TOO_LARGE",
    });
    expect(() => assertAnswer(got(400, { code: "X" }), route, { status: 415 })).toThrow();
    expect(() => assertAnswer(got(400, { code: "X" }), route, { code: "Y" })).toThrow();
    expect(() => assertAnswer(got(400, { code: "X", message: "a" }), route, { message: "b" })).toThrow();
  });

  it("refuse an answer that echoes an oversized value", () => {
    const echo = got(400, { code: "X", message: OVERSIZED_MARK.repeat(10) });
    expect(() => assertAnswer(echo, route, {})).toThrow(/echoes/);
  });
});
