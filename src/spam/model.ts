// C39: the prior and the lists the features look up, read from the worker's static assets
// (spam/model.json, written by `npm run build:assets`), never from its bundle: once per isolate,
// on the first submission it judges or trains on.
import type { Prior } from './classifier.ts';
import type { Lists } from './features.ts';

/** data/spam-prior.json (scripts/spam-prior.ts): the logistic prior, its calibration, the common features. */
export type PriorFile = {
  bias: number;
  calibration: [a: number, b: number];
  common: string[];
  weights: Record<string, number>;
};
/** assets/spam/model.json. */
export type ModelFile = { prior: PriorFile; disposable: string[]; shorteners: string[] };
export type Model = { prior: Prior; lists: Lists };

export const MODEL_PATH = '/spam/model.json';

/** The prior as the classifier reads it. */
export function priorOf(file: PriorFile): Prior {
  return {
    bias: file.bias,
    calibration: file.calibration,
    common: new Set(file.common),
    weights: new Map(Object.entries(file.weights)),
  };
}

export function modelOf(file: ModelFile): Model {
  return {
    prior: priorOf(file.prior),
    lists: { disposable: new Set(file.disposable), shorteners: new Set(file.shorteners) },
  };
}

/** What the model is read from: the worker's ASSETS binding (or, in the tool's tests, the file). */
export type Assets = { fetch(request: Request): Promise<Response> };

/**
 * A loader of one asset of the spam filter, made into what it is read as: fetched from the assets
 * binding once per isolate, and again after a failure (`what` names it in the error).
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

/** The model, fetched from the assets binding once per isolate (again after a failure). */
export const loadModel = assetLoader(MODEL_PATH, 'the spam model', (json) => modelOf(json as ModelFile));
