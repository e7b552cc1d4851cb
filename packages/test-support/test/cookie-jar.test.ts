import { describe, expect, it } from "vitest";
import { CookieJar } from "../src/index.ts";

const answer = (...lines: string[]): Response => {
  const headers = new Headers();
  for (const line of lines) headers.append("set-cookie", line);
  return new Response(null, { headers });
};

describe("CookieJar", () => {
  it("keeps each cookie's latest value and sends them back as one header", () => {
    const jar = new CookieJar();
    jar.absorb(answer("a=1; Path=/; HttpOnly", "b=x%3Dy; Max-Age=60", "a=2"));
    expect([...jar.values]).toEqual([
      ["a", "2"],
      ["b", "x%3Dy"],
    ]);
    expect(jar.header()).toBe("a=2; b=x%3Dy");
  });

  it("deletes on Max-Age=0, a negative Max-Age, a past Expires or an empty value", () => {
    const jar = new CookieJar();
    jar.absorb(answer("a=1", "b=1", "c=1", "d=1", "e=1"));
    jar.absorb(
      answer(
        "a=; Max-Age=0; Path=/",
        "b=gone; max-age=-1",
        "c=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
        "d=",
        `e=kept; Expires=${new Date(Date.now() + 60_000).toUTCString()}`,
      ),
    );
    expect([...jar.values]).toEqual([["e", "kept"]]);
  });

  it("has no header when empty and ignores a line without a pair", () => {
    const jar = new CookieJar();
    jar.apply("garbage");
    expect(jar.header()).toBeUndefined();
  });
});
