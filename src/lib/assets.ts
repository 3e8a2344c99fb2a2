// What the worker reads from its own static assets (the spam filter's models and lists, the
// widget's catalogues): fetched from the ASSETS binding once per isolate, kept, and fetched again
// after a failure, so that a request after a failed read tries again.

/** What an asset is read from: the worker's ASSETS binding (or, in the tool's tests, the file). */
export type Assets = { fetch(request: Request): Promise<Response> };

/**
 * A loader of one asset, made into what it is read as: fetched from the assets binding once per
 * isolate, and again after a failure (`what` names it in the error).
 */
export function assetLoader<T>(path: string, what: string, make: (json: unknown) => T) {
  let loading: Promise<T> | undefined;
  return (assets: Assets): Promise<T> => {
    loading ??= (async () => {
      const response = await assets.fetch(new Request(`https://assets.invalid${path}`));
      if (!response.ok) throw new Error(`${what} answered ${response.status}`);
      return make(await response.json());
    })();
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
}
