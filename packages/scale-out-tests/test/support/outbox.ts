import { readFile } from "node:fs/promises";

/** One reset mail as a node wrote it to the outbox file. */
interface OutboxLine {
  email: string;
  token: string;
}

/**
 * Waits for the newest reset token mailed to `email` (the file is appended by either node;
 * the reset request answers after its timing floor, so the line may land a moment later).
 */
export async function waitForResetToken(
  outboxFile: string,
  email: string,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = await readFile(outboxFile, "utf8").catch(() => "");
    const lines = text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as OutboxLine)
      .filter((line) => line.email === email);
    const last = lines.at(-1);
    if (last) return last.token;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no reset mail for ${email} within ${timeoutMs} ms`);
}
