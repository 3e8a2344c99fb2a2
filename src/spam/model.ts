// C39: the shared prior and the lists the features look up, read from the worker's static assets
// (spam/model.json, written by `npm run build:assets`), never from its bundle: once per isolate,
// on the first submission it judges or trains on.
import type { Counts } from './classifier.ts';
import type { Lists } from './features.ts';

/** data/spam-prior.json: how many ham and spam messages, and each feature's [ham, spam] counts. */
export type PriorFile = { ham: number; spam: number; tokens: Record<string, [number, number]> };
/** assets/spam/model.json. */
export type ModelFile = { prior: PriorFile; disposable: string[]; shorteners: string[] };
export type Model = { prior: Counts; lists: Lists };

export const MODEL_PATH = '/spam/model.json';

/** The prior as the classifier counts it. */
export function priorCounts(prior: PriorFile): Counts {
  return { ham: prior.ham, spam: prior.spam, tokens: new Map(Object.entries(prior.tokens)) };
}

export function modelOf(file: ModelFile): Model {
  return {
    prior: priorCounts(file.prior),
    lists: { disposable: new Set(file.disposable), shorteners: new Set(file.shorteners) },
  };
}

let loading: Promise<Model> | undefined;

/** The model, fetched from the assets binding once per isolate (again after a failure). */
/** What the model is read from: the worker's ASSETS binding (or, in the tool's tests, the file). */
export type Assets = { fetch(request: Request): Promise<Response> };

export function loadModel(assets: Assets): Promise<Model> {
  loading ??= (async () => {
    const response = await assets.fetch(new Request(`https://assets.invalid${MODEL_PATH}`));
    if (!response.ok) throw new Error(`the spam model answered ${response.status}`);
    return modelOf((await response.json()) as ModelFile);
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
