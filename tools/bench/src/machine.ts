import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, platform, release } from "node:os";

/** What the numbers were measured on: they mean little without it. */
export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGB: number;
  node: string;
  platform: string;
  commit: string;
  /** 1-minute load average just before the run: above ~0.5 something else was using the cores. */
  loadAverageAtStart: number;
}

/** Describes this machine and the checked-out commit. */
export function describeMachine(): Machine {
  const [loadAverageAtStart = 0] = loadavg();
  let memoryGB = 0;
  try {
    const total = /MemTotal:\s+(\d+) kB/.exec(readFileSync("/proc/meminfo", "utf8"))?.[1];
    memoryGB = Math.round(Number(total) / 2 ** 20);
  } catch {
    // not Linux: leave 0
  }
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    memoryGB,
    node: process.version,
    platform: `${platform()} ${release()}`,
    commit: gitCommit(),
    loadAverageAtStart,
  };
}

/** CPU time counters at one instant (Linux /proc; zeros elsewhere). */
export interface CpuSnapshot {
  at: number;
  /** Busy jiffies of the whole machine. */
  machineBusy: number;
  /** Jiffies of this process and its reaped children (every server the bench stopped). */
  own: number;
}

/** Reads the machine's and the bench's CPU counters. */
export function cpuSnapshot(): CpuSnapshot {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    // user nice system idle iowait irq softirq steal: all but idle and iowait are busy.
    const machineBusy = fields
      .slice(0, 8)
      .reduce((sum, value, i) => (i === 3 || i === 4 ? sum : sum + value), 0);
    const self = readFileSync("/proc/self/stat", "utf8");
    const after = self
      .slice(self.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    // Fields 14-17 of proc(5) (utime stime cutime cstime) are 11-14 after the command name.
    const own = (after[11] ?? 0) + (after[12] ?? 0) + (after[13] ?? 0) + (after[14] ?? 0);
    return { at: performance.now(), machineBusy, own };
  } catch {
    return { at: performance.now(), machineBusy: 0, own: 0 };
  }
}

/**
 * The share of the machine's CPU capacity that work outside the bench used between two snapshots
 * (0 to 1): other engineers' tests, builds. Counts server processes only once they are stopped,
 * which every group does before it ends.
 */
export function otherCpuShare(from: CpuSnapshot, to: CpuSnapshot, ticksPerSecond = 100): number {
  const capacity = ((to.at - from.at) / 1000) * ticksPerSecond * availableParallelism();
  if (capacity <= 0) return 0;
  const other = to.machineBusy - from.machineBusy - (to.own - from.own);
  return Math.min(1, Math.max(0, other / capacity));
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
