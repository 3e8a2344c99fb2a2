import type { Templates } from './codes.ts';

export const it: Templates = {
  label: '{label:=Questo campo|other=Il campo «#»}',
  type: '{label} deve essere {type:string=un testo|integer=un numero intero|number=un numero|boolean=sì o no|file=un file|other=di tipo #}.',
  required: '{label} è obbligatorio.',
  unknown_field: '{label} non fa parte di questo modulo.',
  min_length: '{label} deve contenere almeno {min:one=# carattere|many=# di caratteri|other=# caratteri}.',
  max_length: '{label} può contenere al massimo {max:one=# carattere|many=# di caratteri|other=# caratteri}.',
  min: '{label} deve essere maggiore o uguale a {min}.',
  max: '{label} deve essere minore o uguale a {max}.',
  format:
    '{label} deve contenere {format:email=un indirizzo email|url=un indirizzo web (URL)|date=una data (AAAA-MM-GG)|date-time=una data e un’ora|uuid=un UUID|other=un valore nel formato #}.',
  one_of: '{label} deve essere {values:«#»}.',
  pattern: '{label} non ha il formato previsto.',
  file_type: '{label} deve contenere un file di tipo {types}.',
  file_size: '{label} non può superare {max:size}.',
  too_many_files: '{label} accetta un solo file.',
  duplicate_field: '{label} è stato inviato più di una volta.',
  unique: '{label} è già stato utilizzato.',
  invalid: '{label} non è valido.',
  validation_failed: 'Controlla i campi evidenziati.',
  rate_limited: 'Troppi tentativi. Attendi un momento e riprova.',
  invalid_key: 'Questo modulo non è configurato correttamente. Avvisa il gestore del sito.',
  origin_not_allowed: 'Questo modulo non può essere inviato da questo sito. Avvisa il gestore del sito.',
  body_too_large:
    'I dati inseriti sono troppo grandi per essere inviati. Riducili o allega file più piccoli.',
  file_too_large: 'Un file è troppo grande. Scegline uno più piccolo.',
  challenge_failed: 'La verifica anti-robot non è riuscita. Riprova.',
  proof_of_work_failed:
    'Il browser non è riuscito a completare il controllo antispam. Ricarica la pagina e riprova.',
  unavailable: 'Al momento non è possibile ricevere il modulo. Riprova tra qualche minuto.',
  form_not_found: 'Questo modulo non esiste più.',
  form_closed:
    '{reason:full=Questo modulo è completo: non accetta altri invii.|not_open=Questo modulo non è ancora aperto.|other=Questo modulo è chiuso.}',
  internal_error: 'Si è verificato un errore da parte nostra. Riprova più tardi.',
  network_error: 'Impossibile inviare il modulo: manca la connessione. Controllala e riprova.',
  unknown: 'Impossibile inviare il modulo. Riprova.',
};
