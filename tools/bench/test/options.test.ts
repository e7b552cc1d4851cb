import { describe, expect, it } from "vitest";
import { parseOptions } from "../src/options.js";

describe("parseOptions", () => {
  it("defaults to 8 s per figure after a 2 s warm-up on 10 connections", () => {
    expect(parseOptions([])).toEqual({ durationSeconds: 8, warmupSeconds: 2, connections: 10, quick: false });
  });

  it("--quick shortens every figure to a smoke run", () => {
    expect(parseOptions(["--quick"])).toEqual({
      durationSeconds: 2,
      warmupSeconds: 0.5,
      connections: 10,
      quick: true,
    });
  });

  it("takes explicit values over --quick, and ignores pnpm's `--`", () => {
    expect(parseOptions(["--", "--quick", "--duration=3", "--warmup=0", "--connections=4"])).toEqual({
      durationSeconds: 3,
      warmupSeconds: 0,
      connections: 4,
      quick: true,
    });
  });

  it.each([["--duration=0"], ["--duration=abc"], ["--connections="], ["--warmup=-1"], ["--fast"]])(
    "refuses %s with the usage",
    (arg) => {
      expect(() => parseOptions([arg])).toThrow(/usage: pnpm bench/);
    },
  );
});
