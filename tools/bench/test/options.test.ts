import { describe, expect, it } from "vitest";
import { GROUPS, isComplete, parseOptions, SCALE_GROUPS } from "../src/options.js";

describe("parseOptions", () => {
  it("defaults to every group, 3 rounds of 5 s per figure after a 2 s warm-up on 10 connections", () => {
    expect(parseOptions([])).toEqual({
      durationSeconds: 5,
      rounds: 3,
      warmupSeconds: 2,
      connections: 10,
      quick: false,
      groups: [...GROUPS],
      typesFrom: "auto",
    });
  });

  it("--quick shortens every figure to a smoke run", () => {
    expect(parseOptions(["--quick"])).toMatchObject({
      durationSeconds: 2,
      warmupSeconds: 0.5,
      connections: 10,
      quick: true,
    });
  });

  it("takes explicit values over --quick, and ignores pnpm's `--`", () => {
    expect(
      parseOptions(["--", "--quick", "--duration=3", "--warmup=0", "--connections=4", "--rounds=5"]),
    ).toMatchObject({
      rounds: 5,
      durationSeconds: 3,
      warmupSeconds: 0,
      connections: 4,
      quick: true,
    });
  });

  it("--only selects groups, in run order, with sign-in/sign-up as aliases of sign", () => {
    expect(parseOptions(["--only=memory,get-session"]).groups).toEqual(["get-session", "memory"]);
    expect(parseOptions(["--only=sign-up,bundle,sign-in"]).groups).toEqual(["bundle", "sign"]);
  });

  it("runs the scale scenarios only when named: `scale` names all three, after the default groups", () => {
    for (const group of SCALE_GROUPS) expect(parseOptions([]).groups).not.toContain(group);
    expect(parseOptions(["scale"]).groups).toEqual(["organization", "credentials", "oauth-provider"]);
    expect(parseOptions(["oauth", "get-session"]).groups).toEqual(["get-session", "oauth-provider"]);
    expect(parseOptions(["--only=verify-totp,organization"]).groups).toEqual(["organization", "credentials"]);
  });

  it.each([
    ["--duration=0"],
    ["--duration=abc"],
    ["--connections="],
    ["--warmup=-1"],
    ["--fast"],
    ["--only="],
    ["--only=latency"],
  ])("refuses %s with the usage", (arg) => {
    expect(() => parseOptions([arg])).toThrow(/usage: pnpm bench/);
  });
});

describe("isComplete", () => {
  it("is true only when every group runs", () => {
    expect(isComplete(parseOptions([]))).toBe(true);
    expect(isComplete(parseOptions(["--only=bundle"]))).toBe(false);
    expect(isComplete(parseOptions([`--only=${GROUPS.join(",")}`]))).toBe(true);
  });
});
