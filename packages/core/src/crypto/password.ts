import { scryptAsync } from "@noble/hashes/scrypt.js";
import { constantTimeEqual } from "./constant-time.js";
import { hexEncode, utf8Encode } from "./encoding.js";
import { nativeCrypto } from "./native.js";
import { createWorkerScrypt } from "./scrypt-workers.js";

/** scrypt cost parameters (RFC 7914 §2). */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  dkLen: number;
}

// The reference's parameters (@better-auth/utils `password`): note r = 16, not the usual 8,
// so one hash needs 128·N·r = 32 MiB of memory.
const PASSWORD_PARAMS: ScryptParams = { N: 16384, r: 16, p: 1, dkLen: 64 };

// The subset of `node:crypto` used here, typed locally so core carries no Node types.
type NodeScrypt = (
  password: Uint8Array,
  salt: Uint8Array,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
  callback: (error: Error | null, key: Uint8Array) => void,
) => void;

let nativeScrypt: NodeScrypt | null | undefined;

// Native scrypt runs in the libuv thread pool; looked up once, lazily (see native.ts).
function findNativeScrypt(): NodeScrypt | null {
  if (nativeScrypt !== undefined) return nativeScrypt;
  const mod = nativeCrypto();
  nativeScrypt = typeof mod?.scrypt === "function" ? (mod.scrypt as NodeScrypt) : null;
  return nativeScrypt;
}

// Where there are no worker threads to lower (Bun, Deno: scrypt-workers.ts is Node only),
// native hashes run on libuv's pool, at most one per core in flight. libuv's pool has 4
// threads; with 4 hashes on 2 cores they time-share the cores with the event loop (a fifth
// runnable thread), which then
// answers every other request at a fraction of a core and sees its latency grow, while the
// hashes finish no sooner (the cores are the limit either way). Each also holds a 32 MiB
// buffer, and the pool threads they leave free keep serving fs and dns work.
let slots: number | undefined;
let running = 0;
const waiting: Array<() => void> = [];

function hashSlots(): number {
  if (slots !== undefined) return slots;
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  const os = host.process?.getBuiltinModule?.("node:os") as
    { availableParallelism?: () => number } | undefined;
  slots = Math.max(1, os?.availableParallelism?.() ?? 4);
  return slots;
}

type ELU = { idle: number; active: number; utilization: number };
type ELUFunction = (current?: ELU, previous?: ELU) => ELU;
const eventLoopUtilization = (globalThis.performance as { eventLoopUtilization?: ELUFunction } | undefined)
  ?.eventLoopUtilization;
let sample: { at: number; elu: ELU; busy: boolean } | undefined;

/**
 * How many hashes may run now: one per core, or one core fewer while the event loop is busy
 * (over half its time working in the last ~100 ms, Node's event-loop utilisation). A busy loop
 * is serving other requests; leaving it a core keeps their latency while sign-ins run, and an
 * idle loop (sign-ins alone) gets every core.
 */
function hashLimit(): number {
  const cores = hashSlots();
  if (cores < 2 || !eventLoopUtilization) return cores;
  const now = Date.now();
  if (!sample) sample = { at: now, elu: eventLoopUtilization(), busy: false };
  else if (now - sample.at >= 100) {
    const elu = eventLoopUtilization();
    sample = { at: now, elu, busy: eventLoopUtilization(elu, sample.elu).utilization > 0.5 };
  }
  return sample.busy ? cores - 1 : cores;
}

/** Runs `hash` once a slot is free, in arrival order. */
async function inSlot<T>(hash: () => Promise<T>): Promise<T> {
  if (running < hashLimit() && waiting.length === 0) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await hash();
  } finally {
    running--;
    // Hand slots on, in arrival order, up to what the loop can spare now (always at least one).
    while (waiting.length > 0 && running < hashLimit()) {
      running++;
      waiting.shift()!();
    }
  }
}

// On Node: niced worker threads (scrypt-workers.ts); `null` once found unavailable.
let workerScrypt: ReturnType<typeof createWorkerScrypt> | undefined;

/** Which scrypt implementation {@link scryptDerive} uses: native when available, or always @noble/hashes. */
export type ScryptEngine = "auto" | "noble";

/**
 * Derives an scrypt key (RFC 7914) off the event loop: node:crypto's libuv thread pool where
 * the runtime has it, else @noble/hashes' async variant, which yields every few ms.
 */
export function scryptDerive(
  password: Uint8Array,
  salt: Uint8Array,
  params: ScryptParams,
  engine: ScryptEngine = "auto",
): Promise<Uint8Array> {
  // Room for scrypt's 128·N·r working buffer with 2x headroom, the reference's bound; both
  // engines refuse to run above `maxmem` (Node's default of 32 MiB is too small for r = 16).
  const maxmem = 128 * params.N * params.r * 2;
  const native = engine === "auto" ? findNativeScrypt() : null;
  if (native !== null) {
    if (workerScrypt === undefined) workerScrypt = createWorkerScrypt(hashSlots());
    if (workerScrypt) return workerScrypt(password, salt, { ...params, maxmem });
  }
  if (native === null) {
    return scryptAsync(password, salt, {
      N: params.N,
      r: params.r,
      p: params.p,
      dkLen: params.dkLen,
      maxmem,
    });
  }
  return inSlot(
    () =>
      new Promise((resolve, reject) => {
        native(
          password,
          salt,
          params.dkLen,
          { N: params.N, r: params.r, p: params.p, maxmem },
          (error, key) => {
            if (error) reject(error);
            else resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength));
          },
        );
      }),
  );
}

// The reference feeds scrypt the salt's 32-char HEX STRING (its ASCII bytes), not the 16 raw
// bytes, and the password after NFKC normalisation (so "ｐａｓｓ" and "pass" are one password,
// whichever form the keyboard produced).
async function passwordKey(password: string, saltHex: string): Promise<string> {
  const key = await scryptDerive(
    utf8Encode(password.normalize("NFKC")),
    utf8Encode(saltHex),
    PASSWORD_PARAMS,
  );
  return hexEncode(key);
}

/** Hashes a password as `<saltHex>:<keyHex>` with the reference's scrypt parameters (N=16384, r=16, p=1, 64-byte key). */
export async function hashPassword(password: string): Promise<string> {
  const saltHex = hexEncode(crypto.getRandomValues(new Uint8Array(16)));
  return `${saltHex}:${await passwordKey(password, saltHex)}`;
}

// What a stored key must look like to be able to match: the reference compares our lowercase
// hex output to it with `===`, so any other form can never verify there either.
const KEY_HEX = /^[0-9a-f]{128}$/;

/**
 * Checks a password against a `<saltHex>:<keyHex>` hash in constant time; a malformed hash
 * is `false` (the reference throws, which surfaces as a bare 500).
 */
export async function verifyPassword({
  hash,
  password,
}: {
  hash: string;
  password: string;
}): Promise<boolean> {
  // Like the reference, take the first two ":"-separated fields and ignore any further ones.
  const [salt, key] = hash.split(":");
  // The salt is not checked for hex: the reference feeds any string to scrypt as-is, so a hash
  // imported with a foreign salt still verifies the same way on both sides.
  if (!salt || key === undefined || !KEY_HEX.test(key)) return false;
  // Constant time: a `===` on the hex strings (as the reference does) leaks the length of the
  // matching prefix; scrypt's cost makes that hard to exploit, but it costs nothing to avoid.
  return constantTimeEqual(await passwordKey(password, salt), key);
}
