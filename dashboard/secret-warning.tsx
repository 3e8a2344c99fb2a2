// C44: a warning beside a field whose name or label looks like it asks for a secret: a form anyone
// can be sent to that asks for one is what a phishing page looks like (dashboard/secrets-words.ts).
import { type SecretKind, secretAskedBy } from './secrets-words.ts';

const ASKING: Record<SecretKind, string> = {
  password: 'a password',
  'card number': 'a card number',
  'card security code': "a card's security code",
  IBAN: 'a bank account (an IBAN)',
  PIN: 'a PIN',
};

/** C44: the warning, or nothing for a field that asks for no secret. */
export function SecretWarning({ field }: { field: { name: string; label?: Record<string, string> } }) {
  const kind = secretAskedBy(field);
  if (kind === undefined) return null;
  return (
    <p class="warning secret-warning">
      <span aria-hidden="true">⚠ </span>
      <strong>{field.name || 'This field'}</strong> looks like it asks for {ASKING[kind]}. A hosted page must
      never ask for a password, a card number or its security code, an IBAN or a PIN: that is what phishing
      pages ask for.
    </p>
  );
}
