// C39: the prior and the lists the features look up, read from the worker's static assets
// (spam/model.json, written by `npm run build:assets`), never from its bundle: once per isolate,
// on the first submission it judges or trains on.
import { assetLoader } from '../lib/assets.ts';
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

/** The model, fetched from the assets binding once per isolate (again after a failure). */
export const loadModel = assetLoader(MODEL_PATH, 'the spam model', (json) => modelOf(json as ModelFile));
