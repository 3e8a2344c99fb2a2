// C44, C33: the dashboard warns beside a field whose name or label looks like it asks for a
// password, a card's number or security code, an IBAN or a PIN, in the languages people write
// them in and the ways fields are named; and never beside an ordinary field, however its words
// are put together.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SecretKind, secretAskedBy, secretIn, wordsOf } from '../../dashboard/secrets-words.ts';

/** How people write each kind, in several languages (the test's own list, not the module's). */
const ASKED: Record<SecretKind, string[]> = {
  password: [
    'Password',
    'Passwort',
    'Kennwort',
    'mot de passe',
    'Contraseña',
    'Senha',
    'Wachtwoord',
    'Hasło',
    'Lösenord',
    'Salasana',
    'Пароль',
    'パスワード',
    '密码',
    '비밀번호',
    'pwd',
  ],
  'card number': [
    'Card number',
    'Credit card',
    'Kartennummer',
    'Kreditkartennummer',
    'Numéro de carte',
    'Número de tarjeta',
    'Número do cartão',
    'Kaartnummer',
    'Numer karty',
    'Номер карты',
    'カード番号',
    'クレジットカード',
    '卡号',
  ],
  'card security code': ['CVC', 'CVV', 'cvv2', 'Security code', 'Kartenprüfnummer', 'Cryptogramme visuel'],
  IBAN: ['IBAN', 'Bank account', 'Kontonummer', 'Rekeningnummer'],
  PIN: ['PIN', 'PIN code', 'Geheimzahl', '暗証番号'],
};

/** Words of ordinary forms, some holding a short secret word inside them (`pin` in `shipping`). */
const ORDINARY = [
  'name',
  'email',
  'message',
  'phone',
  'company',
  'city',
  'country',
  'street',
  'date',
  'comment',
  'subject',
  'website',
  'budget',
  'quantity',
  'your',
  'first',
  'address',
  'postcode',
  'birthday',
  'guests',
  'Nachricht',
  'Vorname',
  'Prénom',
  'correo',
  'mensaje',
  'telefone',
  'お名前',
  '電話',
  'shipping',
  'opinion',
  'spinach',
  'pineapple',
  'passport',
  'compass',
  'discard',
  'cardinal',
  'Pinterest',
  'happiness',
  'civic',
];

const KINDS = Object.keys(ASKED) as SecretKind[];
const asked = fc
  .constantFrom(...KINDS)
  .chain((kind) => fc.tuple(fc.constant(kind), fc.constantFrom(...ASKED[kind])));
const ordinary = fc.array(fc.constantFrom(...ORDINARY), { maxLength: 4 });
const cased = (word: string) => word.charAt(0).toUpperCase() !== word.charAt(0).toLowerCase();
/**
 * How a label or a field's name joins its words: spaces, punctuation, snake, kebab, camel (which
 * only words that begin with a capital can be told apart in: `お名前` is written with a space).
 */
const style = fc.constantFrom<(words: string[]) => string>(
  (w) => w.join(' '),
  (w) => w.join(': '),
  (w) => w.join(' / '),
  (w) => w.join('_').toLowerCase(),
  (w) => w.join('-').toUpperCase(),
  (w) => (w.every(cased) ? w.map((x) => x.charAt(0).toUpperCase() + x.slice(1)).join('') : w.join(' ')),
);

describe('C44: a field that asks for a secret', () => {
  it.each(KINDS.flatMap((kind) => ASKED[kind].map((text) => [text, kind] as const)))(
    '%s asks for a %s',
    (text, kind) => {
      expect(secretIn(text)).toBe(kind);
    },
  );

  it.each([
    ['confirm_password', 'password'],
    ['newPassword', 'password'],
    ['userpassword', 'password'],
    ['card-number', 'card number'],
    ['cardNumber', 'card number'],
    ['cc_number', 'card number'],
    ['CVV2', 'card security code'],
    ['pinCode', 'PIN'],
    ['PINCode', 'PIN'],
    ['iban_de', 'IBAN'],
    ['ＰＡＳＳＷＯＲＤ', 'password'],
    ['パスワード（確認）', 'password'],
  ] as const)('the field name %s asks for a %s', (name, kind) => {
    expect(secretIn(name)).toBe(kind);
  });

  it('finds a secret among any ordinary words, however they are joined and cased', () => {
    fc.assert(
      fc.property(asked, ordinary, ordinary, style, ([kind, text], before, after, join) => {
        expect(secretIn(join([...before, ...text.split(' '), ...after]))).toBe(kind);
      }),
    );
  });

  it('finds none in ordinary words, however they are joined and cased', () => {
    fc.assert(
      fc.property(ordinary, style, (words, join) => {
        expect(secretIn(join(words))).toBeUndefined();
      }),
    );
  });

  it('takes any text without throwing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const found = secretIn(text);
        expect(found === undefined || KINDS.includes(found)).toBe(true);
      }),
    );
  });

  it('looks at the name and at the label in every language, not at its help', () => {
    expect(secretAskedBy({ name: 'code', label: { en: 'Your code', de: 'Ihr Passwort' } })).toBe('password');
    expect(secretAskedBy({ name: 'iban' })).toBe('IBAN');
    expect(secretAskedBy({ name: 'message', label: { en: 'Message' } })).toBeUndefined();
  });

  it('splits words as labels and names are written', () => {
    expect(wordsOf('Kreditkarten-Nummer (Pflicht)')).toEqual(['kreditkarten', 'nummer', 'pflicht']);
    expect(wordsOf('confirmPIN_code')).toEqual(['confirm', 'pin', 'code']);
    expect(wordsOf('Contraseña · Hasło')).toEqual(['contrasena', 'haslo']);
  });
});
