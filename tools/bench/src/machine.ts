import { execFileSync } from "node:child_process";
import { availableParallelism, cpus, platform, release } from "node:os";
import type { BenchReport } from "./report.js";

/** What the numbers were measured on: they mean little without it. */
export function describeMachine(loadAverageAtStart: number): BenchReport["machine"] {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    node: process.version,
    platform: `${platform()} ${release()}`,
    commit: gitCommit(),
    loadAverageAtStart,
  };
}

function gitCommit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return "unknown";
  }
}
