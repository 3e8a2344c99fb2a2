// C44: the hosted page's own words (its button, its notes, its footer, its thank-you and error
// pages), in the languages the widget's and the client's messages speak (C43); another language
// gets English's. A project's own texts (its title, its labels) are the owner's, in the owner's
// languages. No word of the page's own asks for a password or a card number.

export type Words = {
  send: string;
  sending: string;
  /** The key to the `*` beside a required field's label. */
  required: string;
  choose: string;
  /** The thanks when the owner wrote none. */
  thanks: string;
  thankYou: string;
  notSent: string;
  checkForm: string;
  back: string;
  /** Whose form it is: `{name}` the project's, `{host}` the deployment's. */
  formOf: string;
  noSecrets: string;
  language: string;
  /** C22: with scripts off, a page whose project checks Turnstile cannot be sent. */
  needsScript: string;
  /** C46: a page in steps: its buttons, and where the visitor is (`{n}`, `{total}`). */
  next: string;
  previous: string;
  stepOf: string;
  /** C46: partial submissions: what the page says before it keeps anything (`{days}`), and its link. */
  draftNote: string;
  continueLater: string;
};

const WORDS: Record<string, Words> = {
  en: {
    send: 'Send',
    sending: 'Sending…',
    required: '* required',
    choose: 'Choose…',
    thanks: 'Thank you! Your form was sent.',
    thankYou: 'Thank you',
    notSent: 'The form was not sent:',
    checkForm: 'Please check the form',
    back: 'Back to the form',
    formOf: 'A form of {name}, hosted by {host}.',
    noSecrets: 'Never enter a password or a card number in this form.',
    language: 'Language',
    needsScript: "This form's spam check needs JavaScript: turn it on to send the form.",

    next: 'Next',
    previous: 'Back',
    stepOf: 'Step {n} of {total}',

    draftNote: 'What you type here is kept as a draft for {days} days, so that you can continue later.',
    continueLater: 'To continue later, on any device, keep this link:',
  },
  de: {
    send: 'Senden',
    sending: 'Wird gesendet…',
    required: '* Pflichtfeld',
    choose: 'Bitte wählen…',
    thanks: 'Danke! Ihr Formular wurde gesendet.',
    thankYou: 'Danke',
    notSent: 'Das Formular wurde nicht gesendet:',
    checkForm: 'Bitte prüfen Sie das Formular',
    back: 'Zurück zum Formular',
    formOf: 'Ein Formular von {name}, bereitgestellt von {host}.',
    noSecrets: 'Geben Sie in dieses Formular nie ein Passwort oder eine Kartennummer ein.',
    language: 'Sprache',
    needsScript:
      'Die Spam-Prüfung dieses Formulars braucht JavaScript: Schalten Sie es ein, um das Formular zu senden.',

    next: 'Weiter',
    previous: 'Zurück',
    stepOf: 'Schritt {n} von {total}',

    draftNote:
      'Was Sie hier eingeben, wird {days} Tage lang als Entwurf gespeichert, damit Sie später weitermachen können.',
    continueLater: 'Um später weiterzumachen, auf jedem Gerät, bewahren Sie diesen Link auf:',
  },
  fr: {
    send: 'Envoyer',
    sending: 'Envoi…',
    required: '* obligatoire',
    choose: 'Choisir…',
    thanks: 'Merci ! Votre formulaire a été envoyé.',
    thankYou: 'Merci',
    notSent: 'Le formulaire n’a pas été envoyé :',
    checkForm: 'Veuillez vérifier le formulaire',
    back: 'Retour au formulaire',
    formOf: 'Un formulaire de {name}, hébergé par {host}.',
    noSecrets: 'N’entrez jamais de mot de passe ni de numéro de carte dans ce formulaire.',
    language: 'Langue',
    needsScript:
      'La vérification anti-spam de ce formulaire nécessite JavaScript : activez-le pour envoyer le formulaire.',

    next: 'Suivant',
    previous: 'Retour',
    stepOf: 'Étape {n} sur {total}',

    draftNote:
      'Ce que vous saisissez ici est conservé comme brouillon pendant {days} jours, pour que vous puissiez continuer plus tard.',
    continueLater: 'Pour continuer plus tard, sur n’importe quel appareil, gardez ce lien :',
  },
  es: {
    send: 'Enviar',
    sending: 'Enviando…',
    required: '* obligatorio',
    choose: 'Elegir…',
    thanks: '¡Gracias! Su formulario se ha enviado.',
    thankYou: 'Gracias',
    notSent: 'El formulario no se ha enviado:',
    checkForm: 'Revise el formulario',
    back: 'Volver al formulario',
    formOf: 'Un formulario de {name}, alojado en {host}.',
    noSecrets: 'No introduzca nunca una contraseña ni un número de tarjeta en este formulario.',
    language: 'Idioma',
    needsScript:
      'La comprobación antispam de este formulario necesita JavaScript: actívelo para enviar el formulario.',

    next: 'Siguiente',
    previous: 'Atrás',
    stepOf: 'Paso {n} de {total}',

    draftNote:
      'Lo que escribe aquí se guarda como borrador durante {days} días, para que pueda continuar más tarde.',
    continueLater: 'Para continuar más tarde, en cualquier dispositivo, guarde este enlace:',
  },
  it: {
    send: 'Invia',
    sending: 'Invio…',
    required: '* obbligatorio',
    choose: 'Scegli…',
    thanks: 'Grazie! Il modulo è stato inviato.',
    thankYou: 'Grazie',
    notSent: 'Il modulo non è stato inviato:',
    checkForm: 'Controlla il modulo',
    back: 'Torna al modulo',
    formOf: 'Un modulo di {name}, ospitato da {host}.',
    noSecrets: 'Non inserire mai una password o un numero di carta in questo modulo.',
    language: 'Lingua',
    needsScript:
      'Il controllo antispam di questo modulo richiede JavaScript: attivalo per inviare il modulo.',

    next: 'Avanti',
    previous: 'Indietro',
    stepOf: 'Passo {n} di {total}',

    draftNote:
      'Ciò che scrive qui viene conservato come bozza per {days} giorni, così può continuare più tardi.',
    continueLater: 'Per continuare più tardi, su qualsiasi dispositivo, conservi questo link:',
  },
  nl: {
    send: 'Versturen',
    sending: 'Wordt verstuurd…',
    required: '* verplicht',
    choose: 'Kies…',
    thanks: 'Bedankt! Uw formulier is verstuurd.',
    thankYou: 'Bedankt',
    notSent: 'Het formulier is niet verstuurd:',
    checkForm: 'Controleer het formulier',
    back: 'Terug naar het formulier',
    formOf: 'Een formulier van {name}, gehost door {host}.',
    noSecrets: 'Vul in dit formulier nooit een wachtwoord of kaartnummer in.',
    language: 'Taal',
    needsScript:
      'De spamcontrole van dit formulier heeft JavaScript nodig: zet het aan om het formulier te versturen.',

    next: 'Volgende',
    previous: 'Vorige',
    stepOf: 'Stap {n} van {total}',

    draftNote: 'Wat u hier typt, wordt {days} dagen als concept bewaard, zodat u later verder kunt gaan.',
    continueLater: 'Bewaar deze link om later verder te gaan, op elk apparaat:',
  },
  pl: {
    send: 'Wyślij',
    sending: 'Wysyłanie…',
    required: '* wymagane',
    choose: 'Wybierz…',
    thanks: 'Dziękujemy! Formularz został wysłany.',
    thankYou: 'Dziękujemy',
    notSent: 'Formularz nie został wysłany:',
    checkForm: 'Sprawdź formularz',
    back: 'Wróć do formularza',
    formOf: 'Formularz {name}, udostępniany przez {host}.',
    noSecrets: 'Nigdy nie wpisuj w tym formularzu hasła ani numeru karty.',
    language: 'Język',
    needsScript: 'Kontrola antyspamowa tego formularza wymaga JavaScriptu: włącz go, aby wysłać formularz.',

    next: 'Dalej',
    previous: 'Wstecz',
    stepOf: 'Krok {n} z {total}',

    draftNote:
      'To, co tu wpiszesz, jest przechowywane jako szkic przez {days} dni, abyś mógł kontynuować później.',
    continueLater: 'Aby kontynuować później, na dowolnym urządzeniu, zachowaj ten link:',
  },
  pt: {
    send: 'Enviar',
    sending: 'A enviar…',
    required: '* obrigatório',
    choose: 'Escolher…',
    thanks: 'Obrigado! O seu formulário foi enviado.',
    thankYou: 'Obrigado',
    notSent: 'O formulário não foi enviado:',
    checkForm: 'Verifique o formulário',
    back: 'Voltar ao formulário',
    formOf: 'Um formulário de {name}, alojado por {host}.',
    noSecrets: 'Nunca introduza uma palavra-passe ou um número de cartão neste formulário.',
    language: 'Idioma',
    needsScript:
      'A verificação anti-spam deste formulário precisa de JavaScript: ative-o para enviar o formulário.',

    next: 'Seguinte',
    previous: 'Voltar',
    stepOf: 'Passo {n} de {total}',

    draftNote:
      'O que escreve aqui é guardado como rascunho durante {days} dias, para que possa continuar mais tarde.',
    continueLater: 'Para continuar mais tarde, em qualquer dispositivo, guarde esta ligação:',
  },
  ja: {
    send: '送信',
    sending: '送信中…',
    required: '* 必須',
    choose: '選択してください',
    thanks: 'ありがとうございます。フォームを送信しました。',
    thankYou: 'ありがとうございます',
    notSent: 'フォームは送信されませんでした:',
    checkForm: 'フォームを確認してください',
    back: 'フォームに戻る',
    formOf: '{name} のフォーム（{host} が提供）。',
    noSecrets: 'このフォームにパスワードやカード番号を入力しないでください。',
    language: '言語',
    needsScript:
      'このフォームのスパム確認には JavaScript が必要です。送信するには JavaScript を有効にしてください。',

    next: '次へ',
    previous: '戻る',
    stepOf: 'ステップ {n} / {total}',

    draftNote: 'ここに入力した内容は、後で続けられるよう、下書きとして{days}日間保存されます。',
    continueLater: '後で続けるには、どの端末でも、このリンクを保存してください:',
  },
};

/** The page's words for a language tag (`de-AT` speaks `de`'s; one it lacks, English's). */
export function wordsOf(tag: string): Words {
  return WORDS[tag.toLowerCase().split('-')[0] ?? 'en'] ?? (WORDS.en as Words);
}

/** `{name}` and `{host}` of a sentence, filled. */
export const filled = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (all, key: string) => values[key] ?? all);
