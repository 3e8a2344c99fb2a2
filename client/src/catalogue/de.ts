import type { Templates } from './codes.ts';

export const de: Templates = {
  label: '{label:=Dieses Feld|other=„#“}',
  type: '{label} muss {type:string=ein Text|integer=eine ganze Zahl|number=eine Zahl|boolean=Ja oder Nein|file=eine Datei|other=vom Typ #} sein.',
  required: '{label} ist ein Pflichtfeld.',
  unknown_field: '{label} gehört nicht zu diesem Formular.',
  min_length: '{label} muss mindestens {min} Zeichen lang sein.',
  max_length: '{label} darf höchstens {max} Zeichen lang sein.',
  min: '{label} muss mindestens {min} sein.',
  max: '{label} darf höchstens {max} sein.',
  format:
    '{label} muss {format:email=eine E-Mail-Adresse|url=eine Webadresse (URL)|date=ein Datum (JJJJ-MM-TT)|date-time=ein Datum mit Uhrzeit|uuid=eine UUID|other=im Format #} sein.',
  one_of: '{label} muss {values:„#“} sein.',
  pattern: '{label} hat nicht das erwartete Format.',
  file_type: '{label} muss eine Datei vom Typ {types} sein.',
  file_size: '{label} darf höchstens {max:size} groß sein.',
  too_many_files: '{label} nimmt nur eine Datei an.',
  duplicate_field: '{label} wurde mehrfach gesendet.',
  unique: '{label} wurde bereits verwendet.',
  invalid: '{label} ist ungültig.',
  validation_failed: 'Bitte prüfen Sie die markierten Felder.',
  rate_limited: 'Zu viele Versuche. Bitte warten Sie einen Moment und versuchen Sie es dann erneut.',
  invalid_key:
    'Dieses Formular ist nicht richtig eingerichtet. Bitte geben Sie den Betreibern der Website Bescheid.',
  origin_not_allowed:
    'Dieses Formular kann von dieser Website aus nicht gesendet werden. Bitte geben Sie den Betreibern der Website Bescheid.',
  body_too_large:
    'Ihre Eingaben sind zu groß, um gesendet zu werden. Bitte kürzen Sie sie oder hängen Sie kleinere Dateien an.',
  file_too_large: 'Eine Datei ist zu groß. Bitte wählen Sie eine kleinere.',
  challenge_failed: 'Die Prüfung, ob Sie ein Mensch sind, ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  proof_of_work_failed:
    'Ihr Browser konnte die Spam-Prüfung nicht abschließen. Bitte laden Sie die Seite neu und versuchen Sie es erneut.',
  unavailable:
    'Das Formular kann gerade nicht angenommen werden. Bitte versuchen Sie es in ein paar Minuten erneut.',
  form_not_found: 'Dieses Formular gibt es nicht mehr.',
  form_closed:
    '{reason:full=Dieses Formular ist voll: es nimmt keine Einsendungen mehr an.|not_open=Dieses Formular ist noch nicht geöffnet.|other=Dieses Formular ist geschlossen.}',
  internal_error: 'Bei uns ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut.',
  network_error:
    'Das Formular konnte nicht gesendet werden, weil keine Verbindung besteht. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  unknown: 'Das Formular konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
};
