// C41: the operator's view of the places: each database's size and rows, and a warning at 80%.
import * as v from 'valibot';
import { listPlaces } from '../../ops/places.ts';
import { type ManageRoutes, plural } from './define.ts';
import { MANAGE_ROUTES } from './table.ts';

const PlaceSchema = v.object({
  name: v.string(),
  bytes: v.nullable(v.number()),
  maxBytes: v.number(),
  used: v.nullable(v.number()),
  warning: v.nullable(v.string()),
  rows: v.record(v.string(), v.number()),
});

export function placeRoutes(routes: ManageRoutes): void {
  routes.add({
    ...MANAGE_ROUTES.listPlaces,
    tag: 'Places',
    summary:
      "Every place's database: its size against D1's limit, its rows, a warning at 80% (the operator only)",
    access: 'operator',
    reply: {
      status: 200,
      description: 'The places, the default first.',
      members: { places: v.array(PlaceSchema) },
      example: {
        message: '2 places',
        places: [
          {
            name: 'default',
            bytes: 1_204_224,
            maxBytes: 10_000_000_000,
            used: 0.0001,
            warning: null,
            rows: { projects: 3, submissions: 1200 },
          },
        ],
      },
    },
    handler: async ({ m }) => {
      const places = await listPlaces(m);
      return { message: plural(places.length, 'place'), data: { places } };
    },
  });
}
