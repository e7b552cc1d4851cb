/** Debian's Chromium, which `tools/scripts/ensure-chromium.mjs` installs; driven with playwright-core. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Flags for a headless Chromium on this closed network: without the background-networking
 * flags it keeps dialling out, which the network refuses.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
