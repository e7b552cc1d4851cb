/** Which adapter call fails: a method name, optionally only for one model. */
export interface AdapterFault {
  method: string;
  model?: string;
}

/** Switch for {@link faultyAdapter}: set `fault` to make matching calls reject, null to heal. */
export interface FaultSwitch {
  fault: AdapterFault | null;
  /** The calls that were made to fail, as `method:model`. */
  failed: string[];
}

/** The error a faulty call rejects with; its message must never reach a response. */
export const FAULT_MESSAGE = "simulated storage failure: secret-db-detail";

type Factory = (init: never) => object;

function wrap<A extends object>(adapter: A, faults: FaultSwitch): A {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const fault = faults.fault;
        const model = (args[0] as { model?: unknown } | undefined)?.model;
        if (fault && fault.method === prop && (fault.model === undefined || fault.model === model)) {
          faults.failed.push(`${String(prop)}:${String(model)}`);
          return Promise.reject(new Error(FAULT_MESSAGE));
        }
        // The adapter a transaction hands its callback fails the same way.
        if (prop === "transaction" && typeof args[0] === "function") {
          const fn = args[0] as (trx: object) => unknown;
          return (value as (fn: unknown) => unknown).call(target, (trx: object) => fn(wrap(trx, faults)));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * Wraps an adapter factory (e.g. core's `memoryAdapter(store)`) so that the calls named by
 * `faults.fault` reject, as a database that went away would. Only the outside world is faked:
 * the adapter itself still runs for every other call.
 */
export function faultyAdapter<F extends Factory>(factory: F, faults: FaultSwitch): F {
  return ((init: never) => wrap(factory(init), faults)) as F;
}
