import type { Templates } from './codes.ts';

// « … » hold the quoted text between narrow no-break spaces (U+202F), as French typography wants.
export const fr: Templates = {
  label: '{label:=Ce champ|other=Le champ «\u202f#\u202f»}',
  type: '{label} doit être {type:string=un texte|integer=un nombre entier|number=un nombre|boolean=oui ou non|file=un fichier|other=de type #}.',
  required: '{label} est obligatoire.',
  unknown_field: '{label} ne fait pas partie de ce formulaire.',
  min_length: '{label} doit contenir au moins {min:one=# caractère|many=# de caractères|other=# caractères}.',
  max_length: '{label} doit contenir au plus {max:one=# caractère|many=# de caractères|other=# caractères}.',
  min: '{label} doit être supérieur ou égal à {min}.',
  max: '{label} doit être inférieur ou égal à {max}.',
  format:
    '{label} doit contenir {format:email=une adresse e-mail|url=une adresse web (URL)|date=une date (AAAA-MM-JJ)|date-time=une date et une heure|uuid=un UUID|other=une valeur au format #}.',
  one_of: '{label} doit être {values:«\u202f#\u202f»}.',
  pattern: '{label} n’a pas le format attendu.',
  file_type: '{label} doit contenir un fichier de type {types}.',
  file_size: '{label} ne doit pas dépasser {max:size}.',
  too_many_files: '{label} n’accepte qu’un seul fichier.',
  duplicate_field: '{label} a été envoyé plusieurs fois.',
  unique: '{label} a déjà été utilisé.',
  invalid: '{label} n’est pas valide.',
  validation_failed: 'Veuillez vérifier les champs signalés.',
  rate_limited: 'Trop de tentatives. Veuillez patienter un instant, puis réessayer.',
  invalid_key: 'Ce formulaire n’est pas configuré correctement. Veuillez prévenir le responsable du site.',
  origin_not_allowed:
    'Ce formulaire ne peut pas être envoyé depuis ce site. Veuillez prévenir le responsable du site.',
  body_too_large:
    'Votre saisie est trop volumineuse pour être envoyée. Veuillez la raccourcir ou joindre des fichiers plus petits.',
  file_too_large: 'Un fichier est trop volumineux. Veuillez en choisir un plus petit.',
  challenge_failed: 'La vérification anti-robot a échoué. Veuillez réessayer.',
  proof_of_work_failed:
    'Votre navigateur n’a pas pu terminer la vérification anti-spam. Veuillez recharger la page et réessayer.',
  unavailable:
    'Le formulaire ne peut pas être reçu pour le moment. Veuillez réessayer dans quelques minutes.',
  form_not_found: 'Ce formulaire n’existe plus.',
  form_closed:
    '{reason:full=Ce formulaire est complet : il n’accepte plus d’envois.|not_open=Ce formulaire n’est pas encore ouvert.|other=Ce formulaire est fermé.}',
  internal_error: 'Une erreur s’est produite de notre côté. Veuillez réessayer plus tard.',
  network_error:
    'Le formulaire n’a pas pu être envoyé, faute de connexion. Veuillez vérifier votre connexion et réessayer.',
  unknown: 'Le formulaire n’a pas pu être envoyé. Veuillez réessayer.',
};
