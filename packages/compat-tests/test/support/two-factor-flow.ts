import { expect } from "vitest";
import type { Pair } from "./instances.ts";
import { Browser, outbox, PASSWORD, referenceCode, secretOf, type Answer } from "./two-factor.ts";

/** An answer with what differs by construction (tokens, ids, dates, secrets, codes, signatures) replaced by marks. */
export function normalize(answer: Answer): unknown {
  const json = JSON.parse(
    JSON.stringify(answer.json, (key, value: unknown) => {
      if (["id", "userId", "createdAt", "updatedAt", "expiresAt", "token"].includes(key)) return value === null || value === undefined ? value : "<any>";
      if (key === "totpURI" && typeof value === "string") return value.replace(/secret=[A-Z2-7]+/, "secret=<secret>");
      if (key === "backupCodes" && Array.isArray(value)) return value.map((c: string) => (/^[a-zA-Z0-9]{5}-[a-zA-Z0-9]{5}$/.test(c) ? "<code>" : c));
      return value;
    }),
  ) as unknown;
  const cookies = answer.cookies
    .map((c) => ({ ...c, value: c.value === "" ? "" : "<value>" }))
    .sort((a, b) => `${a.name}${a.value}`.localeCompare(`${b.name}${b.value}`));
  return { status: answer.status, json, cookies };
}

/** One scripted two-factor life on one side; every answer normalised. */
export async function scriptedFlow(pair: Pair, side: "reference" | "latchkey"): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const email = "flow@example.com";
  const b = new Browser(pair[side]);
  const step = async (name: string, path: string, body?: unknown) => {
    const answer = await b.post(path, body);
    out[name] = normalize(answer);
    return answer;
  };
  await b.post("/sign-up/email", { email, password: PASSWORD, name: "flow" });
  await step("enable without password", "/two-factor/enable", {});
  await step("enable with a wrong password", "/two-factor/enable", { password: "wrong-password" });
  await step("get-totp-uri before enrolling", "/two-factor/get-totp-uri", { password: PASSWORD });
  await step("generate-backup-codes before enabling", "/two-factor/generate-backup-codes", { password: PASSWORD });
  await step("verify-backup-code without a row", "/two-factor/verify-backup-code", { code: "aaaaa-bbbbb" });
  const enabled = await step("enable", "/two-factor/enable", { password: PASSWORD });
  const { totpURI, backupCodes } = enabled.json as { totpURI: string; backupCodes: string[] };
  const secret = secretOf(totpURI);
  await step("enable again while unverified", "/two-factor/enable", { password: PASSWORD, method: "totp" });
  const current = (await b.post("/two-factor/get-totp-uri", { password: PASSWORD })).json as { totpURI: string };
  const live = secretOf(current.totpURI);
  await step("verify-totp with a wrong code", "/two-factor/verify-totp", { code: "000000x" });
  await step("verify-totp", "/two-factor/verify-totp", { code: await referenceCode(live, Date.now() - 30_000) });
  await step("enable after verifying", "/two-factor/enable", { password: PASSWORD });
  await step("get-totp-uri", "/two-factor/get-totp-uri", { password: PASSWORD });
  await step("get-totp-uri with a wrong password", "/two-factor/get-totp-uri", { password: "wrong-password" });
  await step("sign-out", "/sign-out", {});
  await step("verify-totp without a cookie", "/two-factor/verify-totp", { code: "123456" });
  await step("sign-in", "/sign-in/email", { email, password: PASSWORD });
  await step("verify-totp with the challenge, wrong", "/two-factor/verify-totp", { code: "000000x" });
  await step("verify-backup-code, wrong", "/two-factor/verify-backup-code", { code: "nope" });
  await step("verify-otp before sending", "/two-factor/verify-otp", { code: "123456" });
  await step("send-otp", "/two-factor/send-otp");
  await step("verify-otp, wrong", "/two-factor/verify-otp", { code: "abcdef" });
  await step("verify-otp", "/two-factor/verify-otp", { code: outbox.get(email) });
  const generated = await step("generate-backup-codes", "/two-factor/generate-backup-codes", { password: PASSWORD });
  const fresh = (generated.json as { backupCodes: string[] }).backupCodes;
  await step("an old backup code after generating", "/two-factor/verify-backup-code", { code: backupCodes[0] });
  await step("sign-out again", "/sign-out", {});
  await b.post("/sign-in/email", { email, password: PASSWORD });
  for (let i = 0; i < 5; i++) await b.post("/two-factor/verify-backup-code", { code: `wrong-${i}` });
  await step("a sixth attempt on the challenge", "/two-factor/verify-backup-code", { code: fresh[0] });
  await b.post("/sign-in/email", { email, password: PASSWORD });
  await step("verify-backup-code with trustDevice", "/two-factor/verify-backup-code", { code: fresh[0], trustDevice: true });
  await b.post("/sign-out", {});
  await step("sign-in on a trusted device", "/sign-in/email", { email, password: PASSWORD });
  await step("disable with a wrong password", "/two-factor/disable", { password: "wrong-password" });
  await step("disable", "/two-factor/disable", { password: PASSWORD });
  await step("enable otp", "/two-factor/enable", { password: PASSWORD, method: "otp" });
  await b.post("/sign-out", {});
  await step("sign-in with otp only", "/sign-in/email", { email, password: PASSWORD });
  await step("verify-totp without an enrollment", "/two-factor/verify-totp", { code: "123456" });
  expect(secret).not.toBe(live);
  return out;
}
