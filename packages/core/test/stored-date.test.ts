import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { dateFromText } from "../src/index.js";

// A date read from stored text must be indistinguishable from `new Date(text)` everywhere a
// caller can look, its JSON form included: only the cost of that form differs.
describe("dateFromText", () => {
  const texts = [
    "2026-11-27T04:20:46.123Z",
    "0001-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z",
    // Parse, but not to themselves: the JSON form is toISOString()'s, as for a plain Date.
    "2026-02-30T00:00:00.000Z",
    "2026-04-31T12:00:00.000Z",
    "2026-01-01T24:00:00.000Z",
    "2026-01-01 10:00:00.000Z",
    "2026-01-01T10:00:00Z",
    "2026-01-01T10:00:00.5Z",
    "2026-01-01",
    "Thu, 01 Jan 2026 00:00:00 GMT",
    // Name no instant.
    "2026-01-01T23:60:00.000Z",
    "not a date",
    "",
  ];

  it.each(texts)("%j reads and encodes as new Date() does", (text) => {
    const stored = dateFromText(text);
    const plain = new Date(text);
    expect(stored.getTime()).toStrictEqual(plain.getTime());
    expect(JSON.stringify({ at: stored })).toBe(JSON.stringify({ at: plain }));
    expect(stored.toJSON()).toBe(plain.toJSON());
    expect(String(stored)).toBe(String(plain));
  });

  it("is a Date to instanceof, equality helpers and inspect, with no own keys", () => {
    const stored = dateFromText("2026-11-27T04:20:46.123Z");
    const plain = new Date("2026-11-27T04:20:46.123Z");
    expect(stored).toBeInstanceOf(Date);
    expect(stored.constructor).toBe(Date);
    expect(stored).toStrictEqual(plain);
    expect({ at: stored }).toStrictEqual({ at: plain });
    expect(Object.keys(stored)).toEqual([]);
    expect({ ...stored }).toEqual({});
    expect(inspect(stored)).toBe(inspect(plain));
    expect(structuredClone(stored)).toStrictEqual(plain);
  });

  it("encodes its new time after a setter moves it", () => {
    const stored = dateFromText("2026-11-27T04:20:46.123Z");
    stored.setUTCFullYear(2030);
    expect(JSON.stringify(stored)).toBe('"2030-11-27T04:20:46.123Z"');
    stored.setTime(Number.NaN);
    expect(JSON.stringify(stored)).toBe("null");
    const back = dateFromText("2026-11-27T04:20:46.123Z");
    back.setTime(back.getTime() + 1);
    back.setTime(back.getTime() - 1);
    expect(JSON.stringify(back)).toBe('"2026-11-27T04:20:46.123Z"');
  });

  it("matches toISOString() for random instants across the four-digit years", () => {
    for (let i = 0; i < 2_000; i++) {
      const time = Math.floor(Math.random() * 253_402_300_799_999);
      const text = new Date(time).toISOString();
      const stored = dateFromText(text);
      expect(stored.getTime()).toBe(time);
      expect(stored.toJSON()).toBe(text);
    }
  });
});
