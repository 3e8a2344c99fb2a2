// C35: the confirmation email to the person who submitted, within the day's caps; one that can
// never be sent (no address, a cap reached) fails at once.
import { CONFIRMATIONS_PER_DAY, CONFIRMATIONS_PER_PROJECT } from '../../config.ts';
import { sendConfirmation } from '../confirm.ts';
import type { MailChannel } from './channel.ts';

export const confirmation = {
  family: 'confirmation',
  name: 'Confirmation',
  send: (d, ctx) =>
    sendConfirmation(
      ctx.db,
      {
        binding: ctx.email?.binding,
        from: ctx.email?.from,
        provider: ctx.email?.provider,
        caps: ctx.email?.caps ?? { perMailbox: CONFIRMATIONS_PER_DAY, perProject: CONFIRMATIONS_PER_PROJECT },
        now: ctx.now,
        http: ctx,
      },
      d,
    ),
} satisfies MailChannel;
