import type { Templates } from './codes.ts';

export const nl: Templates = {
  label: '{label:=Dit veld|other=Het veld ‘#’}',
  type: '{label} moet {type:string=tekst|integer=een geheel getal|number=een getal|boolean=ja of nee|file=een bestand|other=van het type #} zijn.',
  required: '{label} is verplicht.',
  unknown_field: '{label} hoort niet bij dit formulier.',
  min_length: '{label} moet minstens {min:one=# teken|other=# tekens} lang zijn.',
  max_length: '{label} mag hoogstens {max:one=# teken|other=# tekens} lang zijn.',
  min: '{label} moet minstens {min} zijn.',
  max: '{label} mag hoogstens {max} zijn.',
  format:
    '{label} moet {format:email=een e-mailadres|url=een webadres (URL)|date=een datum (JJJJ-MM-DD)|date-time=een datum en tijd|uuid=een UUID|other=een waarde in de vorm #} bevatten.',
  one_of: '{label} moet {values:‘#’} zijn.',
  pattern: '{label} heeft niet de verwachte vorm.',
  file_type: '{label} moet een bestand van het type {types} bevatten.',
  file_size: '{label} mag hoogstens {max:size} groot zijn.',
  too_many_files: '{label} accepteert maar één bestand.',
  duplicate_field: '{label} is meer dan eens verstuurd.',
  unique: '{label} is al gebruikt.',
  invalid: '{label} is ongeldig.',
  validation_failed: 'Controleer de gemarkeerde velden.',
  rate_limited: 'Te veel pogingen. Wacht even en probeer het dan opnieuw.',
  invalid_key: 'Dit formulier is niet goed ingesteld. Laat het de beheerder van de website weten.',
  origin_not_allowed:
    'Dit formulier kan niet vanaf deze website worden verstuurd. Laat het de beheerder van de website weten.',
  body_too_large:
    'Wat u hebt ingevuld, is te groot om te versturen. Maak het korter of voeg kleinere bestanden toe.',
  file_too_large: 'Een bestand is te groot. Kies een kleiner bestand.',
  challenge_failed: 'De controle of u geen robot bent, is mislukt. Probeer het opnieuw.',
  proof_of_work_failed:
    'Uw browser kon de spamcontrole niet voltooien. Laad de pagina opnieuw en probeer het nog eens.',
  unavailable:
    'Het formulier kan op dit moment niet worden ontvangen. Probeer het over een paar minuten opnieuw.',
  form_not_found: 'Dit formulier bestaat niet meer.',
  form_closed:
    '{reason:full=Dit formulier is vol: het neemt geen inzendingen meer aan.|not_open=Dit formulier is nog niet open.|other=Dit formulier is gesloten.}',
  internal_error: 'Er is bij ons iets misgegaan. Probeer het later opnieuw.',
  network_error:
    'Het formulier kon niet worden verstuurd, want er is geen verbinding. Controleer uw verbinding en probeer het opnieuw.',
  unknown: 'Het formulier kon niet worden verstuurd. Probeer het opnieuw.',
};
