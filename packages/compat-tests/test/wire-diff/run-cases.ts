import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Captured } from "../support/capture.ts";
import { createPair, type Pair, type PairOptions } from "../support/instances.ts";
import { normalizeCaptured } from "../support/normalize.ts";
import { sendBoth, type BothResult } from "../support/send-both.ts";
import { restoreTables, snapshotTables, type RowCounts } from "../support/tables.ts";
import type { KnownDifferencePart, WireCase } from "./case.ts";
import { seedFixture, type Fixture } from "./fixture.ts";

/** `sendBoth`, after the case's own change to the stored state, which is undone afterwards. */
async function sendPrepared(pair: Pair, fixture: Fixture, c: WireCase): Promise<BothResult> {
  if (!c.prepare) return sendBoth(pair, c.request(fixture));
  const before = snapshotTables(pair.db);
  try {
    c.prepare(pair.db, fixture);
    return await sendBoth(pair, c.request(fixture));
  } finally {
    restoreTables(pair.db, before);
  }
}

const pick = (c: Captured, parts: KnownDifferencePart[]): Partial<Captured> =>
  Object.fromEntries(parts.map((p) => [p, c[p]]));
const omit = (c: Captured, parts: KnownDifferencePart[]): Partial<Captured> =>
  Object.fromEntries(Object.entries(c).filter(([k]) => !parts.includes(k as KnownDifferencePart)));

/** The optional pins of a case on the reference's response (Latchkey must then equal it). */
function pinReference(c: WireCase, reference: Captured): void {
  const { body, headers, cookieAttributes } = c.expected;
  if (body === null) expect(reference.body, "reference body").toBeNull();
  else if (body) expect(reference.body, "reference body").toMatchObject(body);
  if (headers) expect(reference.headers, "reference headers").toMatchObject(headers);
  for (const [name, attributes] of Object.entries(cookieAttributes ?? {})) {
    expect(
      reference.setCookie.find((k) => k.name === name)?.attributes,
      `reference ${name} attributes`,
    ).toEqual(attributes);
  }
}

const NO_WRITES: RowCounts = { user: 0, session: 0, account: 0, verification: 0 };

/**
 * One vitest case per table row, on a pair seeded with one user and session. Every case
 * checks the reference against its pinned status, code and cookie names, both sides' row
 * changes against each other, and Latchkey's normalised response against the reference's.
 */
export function runWireCases(title: string, cases: WireCase[], options: PairOptions = {}): void {
  describe(title, () => {
    let pair: Pair;
    let fixture: Fixture;
    beforeAll(async () => {
      pair = await createPair(options);
      fixture = await seedFixture(pair);
    });
    afterAll(() => pair.close());

    for (const c of cases) {
      const label = c.knownDifference ? `${c.name} [known difference: ${c.knownDifference.note}]` : c.name;
      it(label, async () => {
        const { reference, latchkey, writes, known } = await sendPrepared(pair, fixture, c);
        expect(reference.status, "reference status").toBe(c.expected.status);
        expect(errorCode(reference), "reference code").toBe(c.expected.code);
        expect(reference.setCookie.map((k) => k.name).sort(), "reference cookies").toEqual(
          [...(c.expected.cookies ?? [])].sort(),
        );
        pinReference(c, reference);
        expect(writes.latchkey, "rows written by Latchkey vs the reference").toEqual(writes.reference);
        if (c.noWrites) expect(writes.reference, "bad input must write nothing").toEqual(NO_WRITES);

        const view = (captured: Captured): Captured => {
          const normalized = normalizeCaptured(captured, known);
          return c.bodyView ? { ...normalized, body: c.bodyView(normalized.body) } : normalized;
        };
        const ours = view(latchkey);
        const theirs = view(reference);
        if (!c.knownDifference) {
          expect(ours).toEqual(theirs);
          return;
        }
        // The recorded parts must still differ and every other part must match, so this
        // case fails (and its mark must go) once core matches the reference.
        const { parts } = c.knownDifference;
        expect(omit(ours, parts)).toEqual(omit(theirs, parts));
        expect(
          pick(ours, parts),
          "the known difference is gone: remove knownDifference from this case",
        ).not.toEqual(pick(theirs, parts));
      });
    }
  });
}
