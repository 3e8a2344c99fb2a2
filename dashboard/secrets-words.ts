// C44, C33: whether a field looks like it asks for something a form must never ask for: a password,
// a card's number or security code, a bank account's IBAN, a PIN. A hosted page that asks for one
// is what a phishing page looks like, so the dashboard warns beside such a field (its name, or its
// label in any language). Words are matched as people write them in a label or a field's name:
// any case, with or without accents, in snake_case, camelCase or kebab-case, German and Dutch
// compounds inside a longer word (`Kreditkartennummer`), Japanese, Chinese and Korean without spaces.

/** What a field seems to ask for, as a warning names it. */
export type SecretKind = 'password' | 'card number' | 'card security code' | 'IBAN' | 'PIN';

/**
 * Each kind's words. `within`: found anywhere in the text with its words run together (long
 * enough to mean nothing else inside another word); `words`: whole words of the text, one after
 * the other (short ones, which other words hold: `pin` in `shipping`), each followed by digits or
 * not (`cvv2`).
 */
const KINDS: readonly { kind: SecretKind; within: readonly string[]; words: readonly string[] }[] = [
  {
    kind: 'password',
    within: [
      'password',
      'passwort',
      'passwd',
      'kennwort',
      'wachtwoord',
      'motdepasse',
      'contrasena',
      'palavrapasse',
      'losenord',
      'adgangskode',
      'salasana',
      'пароль',
      'パスワード',
      '密码',
      '密碼',
      '비밀번호',
    ],
    words: [
      'pwd',
      'pw',
      'senha',
      'haslo',
      'heslo',
      'jelszo',
      'sifre',
      'lozinka',
      'geslo',
      'parool',
      'passord',
    ],
  },
  {
    kind: 'card number',
    within: [
      'cardnumber',
      'creditcard',
      'debitcard',
      'kartennummer',
      'kreditkarte',
      'kaartnummer',
      'numerodecarte',
      'cartebancaire',
      'cartedecredit',
      'numerodetarjeta',
      'tarjetadecredito',
      'numerodocartao',
      'cartaodecredito',
      'numerodellacarta',
      'cartadicredito',
      'numerkarty',
      'kortnummer',
      'номеркарты',
      'カード番号',
      'クレジットカード',
      '卡号',
      '信用卡',
      '카드번호',
      '신용카드',
    ],
    words: ['ccnum', 'cc num', 'cc number', 'cc no', 'cardnum', 'kortnr'],
  },
  {
    kind: 'card security code',
    within: [
      'securitycode',
      'cardverification',
      'sicherheitscode',
      'kartenprufnummer',
      'cryptogramme',
      'codedesecurite',
      'codigodeseguridad',
      'codigodeseguranca',
      'codicedisicurezza',
      'セキュリティコード',
      '安全码',
    ],
    words: ['cvc', 'cvv', 'cvn'],
  },
  {
    kind: 'IBAN',
    within: ['bankaccount', 'bankkonto', 'kontonummer', 'rekeningnummer'],
    words: ['iban'],
  },
  {
    kind: 'PIN',
    within: ['geheimzahl', '暗証番号'],
    words: ['pin', 'pincode', 'pinnummer', 'pinnr'],
  },
];

/**
 * A text's words, lower case, without the accents of Latin letters (`contraseña` → `contrasena`,
 * `hasło` → `haslo`), split at anything not a letter or digit and where camelCase turns (`cvv2Code`: cvv2, code).
 */
export function wordsOf(text: string): string[] {
  const latin = text
    .normalize('NFKD')
    // Accents are dropped from Latin letters only: kana keep their voicing marks (パ is not ハ).
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .replace(/ß/g, 'ss')
    .replace(/ẞ/g, 'SS');
  return latin
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** What the text seems to ask for, the first kind found; undefined when nothing. */
export function secretIn(text: string): SecretKind | undefined {
  const words = wordsOf(text);
  const joined = words.join('');
  const bare = ` ${words.map((w) => w.replace(/\d+$/, '')).join(' ')} `;
  return KINDS.find(
    (k) => k.within.some((w) => joined.includes(w)) || k.words.some((w) => bare.includes(` ${w} `)),
  )?.kind;
}

/** C44: what a field seems to ask for, by its name or its label in any of its languages. */
export function secretAskedBy(field: {
  name: string;
  label?: Record<string, string> | undefined;
}): SecretKind | undefined {
  for (const text of [field.name, ...Object.values(field.label ?? {})]) {
    const kind = secretIn(text);
    if (kind !== undefined) return kind;
  }
  return undefined;
}
