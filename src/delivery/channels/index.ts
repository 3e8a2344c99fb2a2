// Every delivery kind, one line each: the list of kinds, the API's picklists and the document, the
// dispatch, the test send, and the tool's and the dashboard's choices all come from this map.
// Adding a kind: docs/layout.md, "Adding a channel".
import { airtable } from './airtable.ts';
import type { Channel, Family, HookChannel, IntegrationChannel } from './channel.ts';
import { confirmation } from './confirmation.ts';
import { discord } from './discord.ts';
import { email } from './email.ts';
import { googleSheets } from './google-sheets.ts';
import { notion } from './notion.ts';
import { slack } from './slack.ts';
import { telegram } from './telegram.ts';
import { webhook } from './webhook.ts';

export const CHANNELS = {
  webhook,
  email,
  slack,
  discord,
  confirmation,
  'google-sheets': googleSheets,
  notion,
  airtable,
  telegram,
} as const satisfies Record<string, Channel>;

export type ChannelKind = keyof typeof CHANNELS;
/** The kinds of a family: `KindOf<'webhook'>` is 'webhook' | 'slack' | 'discord'. */
export type KindOf<F extends Family> = {
  [K in ChannelKind]: (typeof CHANNELS)[K]['family'] extends F ? K : never;
}[ChannelKind];

/** Every kind, in the map's order. */
export const CHANNEL_KINDS = Object.keys(CHANNELS) as [ChannelKind, ...ChannelKind[]];

/** The kinds of a family, in the map's order. */
export function kindsOf<F extends Family>(family: F): [KindOf<F>, ...KindOf<F>[]] {
  return CHANNEL_KINDS.filter((kind) => CHANNELS[kind].family === family) as [KindOf<F>, ...KindOf<F>[]];
}

/** The channel of a kind a target row holds; undefined for a kind this worker does not know. */
export function channelOf(kind: string): Channel | undefined {
  return Object.hasOwn(CHANNELS, kind) ? CHANNELS[kind as ChannelKind] : undefined;
}

export const isKindOf = <F extends Family>(family: F, kind: string): kind is KindOf<F> =>
  channelOf(kind)?.family === family;

export const hookChannel = (kind: KindOf<'webhook'>): HookChannel => CHANNELS[kind];
export const integrationChannel = (kind: KindOf<'integration'>): IntegrationChannel => CHANNELS[kind];

/**
 * What the dashboard offers, by family (built into `/admin/channels.json` by build:assets): a
 * webhook's kinds with their example URLs; an integration's kinds with the fields that add one.
 */
export function channelChoices() {
  return {
    webhook: kindsOf('webhook').map((kind) => {
      const { name, label, example, signs } = hookChannel(kind);
      return { kind, name, label, example, signs };
    }),
    integration: kindsOf('integration').map((kind) => {
      const { name, help, writesTo, inputs } = integrationChannel(kind);
      return {
        kind,
        name,
        help,
        writesTo,
        inputs: inputs.map(({ key, label, secret, fallback }) => ({
          key,
          label,
          ...(secret === undefined ? {} : { secret: secret.kind }),
          ...(fallback === undefined ? {} : { fallback }),
        })),
      };
    }),
  };
}
export type ChannelChoices = ReturnType<typeof channelChoices>;
