import { describe, expect, it } from "vitest";
import { sessionCookieValue } from "../src/session-cookie-value.ts";
import { exposeHeader } from "../src/set-auth-token.ts";

const NAME = "better-auth.session_token";

describe("sessionCookieValue", () => {
  it.each([
    ["no cookies", [], null],
    ["another cookie only", ["better-auth.session_data=abc; Path=/"], null],
    ["a prefix of the name is not the name", [`${NAME}x=abc; Path=/`], null],
    ["percent-decoded", [`${NAME}=tok.sig%2Bx%3D; Max-Age=604800; Path=/`], "tok.sig+x="],
    ["quoted", [`${NAME}="tok.sig"; Path=/`], "tok.sig"],
    ["a malformed escape stays as is", [`${NAME}=tok%E0%A4%A; Path=/`], "tok%E0%A4%A"],
    ["no Max-Age (browser session)", [`${NAME}=tok.sig; Path=/; HttpOnly`], "tok.sig"],
    ["expired by Max-Age=0", [`${NAME}=; Max-Age=0; Path=/`], null],
    ["expired with a value", [`${NAME}=tok.sig; max-age=0; Path=/`], null],
    ["negative Max-Age", [`${NAME}=tok.sig; Max-Age=-1`], null],
    ["the last write wins", [`${NAME}=old.sig; Max-Age=10`, `${NAME}=new.sig; Max-Age=10`], "new.sig"],
    ["set, then expired", [`${NAME}=old.sig; Max-Age=10`, `${NAME}=; Max-Age=0`], null],
  ])("%s", (_, lines, expected) => {
    expect(sessionCookieValue(lines, NAME)).toBe(expected);
  });
});

describe("exposeHeader", () => {
  it.each([
    [null, "set-auth-token"],
    ["", "set-auth-token"],
    ["x-a", "x-a, set-auth-token"],
    [" x-a ,, x-b ", "x-a, x-b, set-auth-token"],
    ["Set-Auth-Token", "Set-Auth-Token"],
  ])("%j", (current, expected) => {
    expect(exposeHeader(current, "set-auth-token")).toBe(expected);
  });
});
