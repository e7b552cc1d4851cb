import { figureRequest } from "../figures.js";
import { describe, failed, median, medianOfRounds, runLoad, type Measurement } from "../load.js";
import { measureInRounds, roundOrder } from "../rounds.js";
import { baseSettings, IMPLEMENTATIONS, withServers, type RunContext, type Target } from "../run-context.js";
import type { Implementation } from "../server-config.js";
import type { ServerStats } from "../servers/serve.js";
import { measureScryptLimit, type ScryptLimit } from "../scrypt-limit.js";
import type { Table } from "../table.js";
import { atLeast, atMost, msText, percentText, ratioText, verdictText, type Verdict } from "../targets.js";

/** Sign-in, sign-up and the event-loop check of one implementation. */
export interface SignMeasurements {
  signIn: Measurement;
  signUp: Measurement;
  /** get-session alone, then with a sign-in load running at the same time. */
  getSessionAlone: Measurement;
  getSessionWithSignIns: Measurement;
  signInsDuringCheck: Measurement;
  /** The server's event-loop delay (ms) over each of those two windows. */
  loopAlone: ServerStats["loopDelay"];
  loopWithSignIns: ServerStats["loopDelay"];
}

export interface SignResult {
  /** The machine's scrypt limit, measured at the start of the group, right before the figures it judges. */
  scrypt: ScryptLimit;
  latchkey: SignMeasurements;
  reference: SignMeasurements;
  /** Share of the scrypt limit each reached. */
  share: { signIn: Record<Implementation, number>; signUp: Record<Implementation, number> };
  targets: { signIn: Verdict; signUp: Verdict; p99Kept: Verdict; loopNeverBlocked: Verdict };
}

const POOL_SIZE_NOTE = "4 (libuv's pool size)";

/** How much get-session's p99 may grow while sign-ins hash on the same 2 cores and still count as kept. */
export const P99_KEPT_FACTOR = 2;

/** Sign-in and sign-up against the scrypt limit, and get-session's p99 with and without sign-ins beside it. */
export async function runSign(ctx: RunContext): Promise<SignResult> {
  // Before any server exists: the ceiling the hashing figures are read against.
  const scrypt = await measureScryptLimit();
  ctx.log(
    `scrypt: ${scrypt.medianMs.toFixed(1)} ms each, limit ${scrypt.signInsPerSecond.toFixed(1)} sign-ins/s on ${scrypt.cores} cores; ${scrypt.parallelPerSecond.toFixed(1)} hashes/s with 4 in flight`,
  );
  const specs = {
    latchkey: { implementation: "latchkey", settings: baseSettings(ctx, "latchkey") },
    reference: { implementation: "reference", settings: baseSettings(ctx, "reference") },
  } as const;
  const measured = await withServers(ctx, specs, async (targets) => {
    const loop = await eventLoopCheck(ctx, targets);
    const signIn = await measureInRounds(
      ctx,
      targets,
      ({ server, user }) => figureRequest("sign-in", server.baseURL, user),
      "sign-in",
    );
    // Last: it grows the user table.
    const signUp = await measureInRounds(
      ctx,
      targets,
      ({ server, user }) => figureRequest("sign-up", server.baseURL, user),
      "sign-up",
    );
    const of = (i: Implementation): SignMeasurements => ({
      signIn: signIn[i],
      signUp: signUp[i],
      ...loop[i],
    });
    return { latchkey: of("latchkey"), reference: of("reference") };
  });
  const { latchkey, reference } = measured;
  const limit = scrypt.signInsPerSecond;
  const share = {
    signIn: { latchkey: latchkey.signIn.rps / limit, reference: reference.signIn.rps / limit },
    signUp: { latchkey: latchkey.signUp.rps / limit, reference: reference.signUp.rps / limit },
  };
  const growth = latchkey.getSessionWithSignIns.p99 / latchkey.getSessionAlone.p99;
  return {
    scrypt,
    latchkey,
    reference,
    share,
    targets: {
      signIn: atLeast(share.signIn.latchkey, 0.9, "≥ 90% of limit"),
      signUp: atLeast(share.signUp.latchkey, 0.9, "≥ 90% of limit"),
      p99Kept: atMost(growth, P99_KEPT_FACTOR, `≤ ${P99_KEPT_FACTOR}x alone`),
      loopNeverBlocked: atMost(
        latchkey.loopWithSignIns.max,
        scrypt.medianMs,
        `< one scrypt (${msText(scrypt.medianMs)} ms)`,
      ),
    },
  };
}

type LoopCheck = Omit<SignMeasurements, "signIn" | "signUp">;

/**
 * Per round and implementation: a get-session window alone, then one with a sign-in load
 * beside it (two autocannon instances from this process, each on its own connections), the
 * server's event-loop delay read over each window. Medians over rounds, as for every figure.
 */
async function eventLoopCheck(
  ctx: RunContext,
  targets: Record<Implementation, Target>,
): Promise<Record<Implementation, LoopCheck>> {
  const { options, log } = ctx;
  const window = { seconds: options.durationSeconds };
  const requests = ({ server, user }: Target) => ({
    getSession: figureRequest("get-session", server.baseURL, user),
    signIn: figureRequest("sign-in", server.baseURL, user),
  });
  const runs = {
    latchkey: { alone: [] as Window[], beside: [] as Window[], signIns: [] as Measurement[] },
    reference: { alone: [] as Window[], beside: [] as Window[], signIns: [] as Measurement[] },
  };
  const warmup = { seconds: Math.max(options.warmupSeconds, 0.5) };
  for (const implementation of IMPLEMENTATIONS) {
    const { server } = targets[implementation];
    const { getSession, signIn } = requests(targets[implementation]);
    await runLoad(server.baseURL, getSession, options.connections, warmup);
    await runLoad(server.baseURL, signIn, options.connections, warmup);
    await server.settle();
  }
  for (let round = 0; round < options.rounds; round++) {
    for (const implementation of roundOrder(IMPLEMENTATIONS, round)) {
      const { server } = targets[implementation];
      const { getSession, signIn } = requests(targets[implementation]);
      await server.stats({ reset: true });
      const alone = await runLoad(server.baseURL, getSession, options.connections, window);
      runs[implementation].alone.push({ load: alone, loop: (await server.stats({ reset: true })).loopDelay });
      await server.settle();
      await server.stats({ reset: true });
      const [beside, signIns] = await Promise.all([
        runLoad(server.baseURL, getSession, options.connections, window),
        runLoad(server.baseURL, signIn, options.connections, window),
      ]);
      runs[implementation].beside.push({
        load: beside,
        loop: (await server.stats({ reset: true })).loopDelay,
      });
      runs[implementation].signIns.push(signIns);
      await server.settle();
    }
  }
  const result = {} as Record<Implementation, LoopCheck>;
  for (const implementation of IMPLEMENTATIONS) {
    const r = runs[implementation];
    result[implementation] = {
      getSessionAlone: medianOfRounds(r.alone.map((w) => w.load)),
      getSessionWithSignIns: medianOfRounds(r.beside.map((w) => w.load)),
      signInsDuringCheck: medianOfRounds(r.signIns),
      loopAlone: medianLoop(r.alone),
      loopWithSignIns: medianLoop(r.beside),
    };
    const c = result[implementation];
    log(
      `${implementation} get-session alone: ${describe(c.getSessionAlone)}, loop delay max ${msText(c.loopAlone.max)} ms; ` +
        `beside sign-ins: ${describe(c.getSessionWithSignIns)}, loop delay max ${msText(c.loopWithSignIns.max)} ms; sign-ins ${c.signInsDuringCheck.rps.toFixed(1)}/s`,
    );
  }
  return result;
}

interface Window {
  load: Measurement;
  loop: ServerStats["loopDelay"];
}

/** Each event-loop statistic's median over the rounds' windows (the max too: one burst of other work is not the server's). */
function medianLoop(windows: readonly Window[]): ServerStats["loopDelay"] {
  return {
    mean: median(windows.map((w) => w.loop.mean)),
    p50: median(windows.map((w) => w.loop.p50)),
    p99: median(windows.map((w) => w.loop.p99)),
    max: median(windows.map((w) => w.loop.max)),
  };
}

/** Two tables: the hashing figures against the scrypt limit, and the event-loop check. */
export function signTables(result: SignResult): Table[] {
  const { scrypt, latchkey: l, reference: r, share, targets } = result;
  const flag = (a: Measurement, b: Measurement): string => (failed(a) || failed(b) ? " (!)" : "");
  const hashing: Table = {
    title: "sign-in and sign-up (one scrypt each)",
    header: [
      "figure",
      "Latchkey rps",
      "p99 ms",
      "ref rps",
      "p99 ms",
      "rps L/ref",
      "L % of limit",
      "target",
      "ref % of limit",
    ],
    rows: [
      [
        "sign-in" + flag(l.signIn, r.signIn),
        l.signIn.rps.toFixed(1),
        msText(l.signIn.p99),
        r.signIn.rps.toFixed(1),
        msText(r.signIn.p99),
        ratioText(l.signIn.rps / r.signIn.rps),
        percentText(share.signIn.latchkey),
        verdictText(targets.signIn),
        percentText(share.signIn.reference),
      ],
      [
        "sign-up" + flag(l.signUp, r.signUp),
        l.signUp.rps.toFixed(1),
        msText(l.signUp.p99),
        r.signUp.rps.toFixed(1),
        msText(r.signUp.p99),
        ratioText(l.signUp.rps / r.signUp.rps),
        percentText(share.signUp.latchkey),
        verdictText(targets.signUp),
        percentText(share.signUp.reference),
      ],
    ],
    notes: [
      `scrypt limit: one native scrypt (N=16384, r=16, p=1, 64 bytes) takes ${scrypt.medianMs.toFixed(1)} ms (median of 9); ${scrypt.cores} cores / that = ${scrypt.signInsPerSecond.toFixed(1)} sign-ins/s at most.`,
      `For context: native scrypt alone, ${POOL_SIZE_NOTE} in flight, reached ${scrypt.parallelPerSecond.toFixed(1)} hashes/s here (${percentText(scrypt.parallelPerSecond / scrypt.signInsPerSecond)} of the limit) — what a Node server can actually get from these cores. Latchkey reached ${percentText(l.signIn.rps / scrypt.parallelPerSecond)} (sign-in) and ${percentText(l.signUp.rps / scrypt.parallelPerSecond)} (sign-up) of that; the reference ${percentText(r.signIn.rps / scrypt.parallelPerSecond)} and ${percentText(r.signUp.rps / scrypt.parallelPerSecond)}.`,
      ...problems("sign-in", l.signIn, r.signIn),
      ...problems("sign-up", l.signUp, r.signUp),
    ],
  };
  const row = (
    name: string,
    m: SignMeasurements,
    p99Kept: Verdict | null,
    blocked: Verdict | null,
  ): string[] => [
    name,
    `${m.getSessionAlone.rps.toFixed(0)} / ${msText(m.getSessionAlone.p99)}`,
    `${m.getSessionWithSignIns.rps.toFixed(0)} / ${msText(m.getSessionWithSignIns.p99)}`,
    ratioText(m.getSessionWithSignIns.p99 / m.getSessionAlone.p99),
    verdictText(p99Kept),
    m.signInsDuringCheck.rps.toFixed(1),
    `${msText(m.loopAlone.p99)} / ${msText(m.loopWithSignIns.p99)}`,
    `${msText(m.loopAlone.max)} / ${msText(m.loopWithSignIns.max)}`,
    verdictText(blocked),
  ];
  const loop: Table = {
    title: "event loop while sign-ins run (get-session load alone, then beside a sign-in load)",
    header: [
      "server",
      "get-session alone rps / p99 ms",
      "with sign-ins rps / p99 ms",
      "p99 growth",
      "target",
      "sign-ins/s beside",
      "loop delay p99 ms alone / with",
      "max ms alone / with",
      "target",
    ],
    rows: [row("Latchkey", l, targets.p99Kept, targets.loopNeverBlocked), row("reference", r, null, null)],
    notes: [
      `A hash on the event loop would stall every request behind it for a whole scrypt (${msText(scrypt.medianMs)} ms): the server's own event-loop delay maximum (perf_hooks, 10 ms resolution; median over rounds of each window's maximum) says whether that happened.`,
      `Some p99 growth is expected without any blocking: the hashes run on libuv's pool and take the same ${scrypt.cores} cores the event loop and the load generator use, so "kept" allows ${P99_KEPT_FACTOR}x.`,
      ...problems("get-session beside sign-ins", l.getSessionWithSignIns, r.getSessionWithSignIns),
    ],
  };
  return [hashing, loop];
}

function problems(figure: string, latchkey: Measurement, reference: Measurement): string[] {
  return (
    [
      ["Latchkey", latchkey],
      ["reference", reference],
    ] as const
  ).flatMap(([name, m]) =>
    failed(m)
      ? [
          `(!) ${figure} on ${name}: ${m.non2xx} non-2xx, ${m.errors} errors, ${m.timeouts} timeouts; status codes ${JSON.stringify(m.statusCodes)} (rps counts 2xx only).`,
        ]
      : [],
  );
}
