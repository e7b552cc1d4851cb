import { readdirSync, readFileSync } from "node:fs";
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { describe, expect, it } from "vitest";
import { HASH_THREAD_NICE, createWorkerScrypt } from "../../src/crypto/scrypt-workers.js";
import { hexEncode, utf8Encode } from "../../src/crypto/encoding.js";

const params = { N: 1024, r: 8, p: 1, dkLen: 64, maxmem: 128 * 1024 * 8 * 2 };

/** Nice values of this process's threads (Linux /proc; field 19 of each task's stat). */
function threadNiceValues(): number[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

describe("scrypt on niced worker threads (Node)", () => {
  const scrypt = createWorkerScrypt(2)!;

  it("is available on Node and derives the same keys as @noble/hashes, many at once", async () => {
    expect(scrypt).not.toBeNull();
    const inputs = Array.from({ length: 6 }, (_, i) => [utf8Encode(`password ${i}`), utf8Encode(`salt ${i}`)] as const);
    const ours = await Promise.all(inputs.map(([pw, salt]) => scrypt(pw, salt, params)));
    const theirs = await Promise.all(inputs.map(([pw, salt]) => scryptAsync(pw, salt, params)));
    expect(ours.map(hexEncode)).toEqual(theirs.map(hexEncode));
  });

  it("runs the hashing threads at the lowest priority, the event loop's unchanged", async () => {
    await scrypt(utf8Encode("warm"), utf8Encode("up"), params);
    const nice = threadNiceValues();
    expect(nice).toContain(HASH_THREAD_NICE);
    expect(nice[0]).toBe(0);
  });

  it("rejects a hash the parameters make impossible and keeps serving the next ones", async () => {
    await expect(scrypt(utf8Encode("p"), utf8Encode("s"), { ...params, N: 1000 })).rejects.toThrow(Error);
    const key = await scrypt(utf8Encode("p"), utf8Encode("s"), params);
    expect(hexEncode(key)).toBe(hexEncode(await scryptAsync(utf8Encode("p"), utf8Encode("s"), params)));
  });
});

describe("scrypt workers and process exit", () => {
  it("a process that hashed and awaited the key exits on its own (idle workers hold nothing)", async () => {
    const { spawn } = await import("node:child_process");
    const { fileURLToPath } = await import("node:url");
    const source = fileURLToPath(new URL("../../src/crypto/scrypt-workers.ts", import.meta.url));
    const script = `
      const { createWorkerScrypt } = await import(${JSON.stringify(source)});
      const scrypt = createWorkerScrypt(2);
      const key = await scrypt(new Uint8Array([1]), new Uint8Array([2]), ${JSON.stringify(params)});
      console.log(key.length);
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | string>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve("still running after 20 s");
      }, 20_000);
      child.on("exit", (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode ?? -1);
      });
    });
    expect(code).toBe(0);
    expect(out.trim()).toBe("64");
  });
});
