/**
 * A module (or anything else loaded asynchronously) loaded on its first use and kept; a load that
 * fails is tried again at the next use. The providers load their SDK this way, so that importing
 * the library (or constructing a provider) does not load every provider's SDK, and a deferred tool
 * its code. `loaded()` serves code that only runs after a use has loaded it, such as error mapping.
 */
export interface LazyModule<M> {
  load(): Promise<M>;
  loaded(): M | undefined;
}

export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let module: M | undefined;
  let loading: Promise<M> | undefined;
  return {
    load: () =>
      (loading ??= importer().then(
        (loaded) => (module = loaded),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
    loaded: () => module,
  };
}

/** `error instanceof type`, false while the class's module is not loaded (nothing it defines can have been thrown yet). */
export function isInstance<T>(error: unknown, type: (abstract new (...args: never[]) => T) | undefined): error is T {
  return type !== undefined && error instanceof type;
}
