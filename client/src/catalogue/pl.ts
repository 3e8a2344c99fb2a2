import type { Templates } from './codes.ts';

// Polish counts in three forms: 1 znak, 2–4 znaki (and 22–24…), 5 znaków; a fraction takes "znaku".
export const pl: Templates = {
  label: '{label:=To pole|other=Pole „#”}',
  type: '{label} musi zawierać {type:string=tekst|integer=liczbę całkowitą|number=liczbę|boolean=wartość „tak” lub „nie”|file=plik|other=wartość typu #}.',
  required: '{label} jest wymagane.',
  unknown_field: '{label} nie należy do tego formularza.',
  min_length: '{label} musi mieć co najmniej {min:one=# znak|few=# znaki|many=# znaków|other=# znaku}.',
  max_length: '{label} może mieć co najwyżej {max:one=# znak|few=# znaki|many=# znaków|other=# znaku}.',
  min: '{label} musi mieć wartość co najmniej {min}.',
  max: '{label} może mieć wartość co najwyżej {max}.',
  format:
    '{label} musi zawierać {format:email=adres e-mail|url=adres strony (URL)|date=datę (RRRR-MM-DD)|date-time=datę i godzinę|uuid=identyfikator UUID|other=wartość w formacie #}.',
  one_of: '{label} musi mieć wartość {values:„#”}.',
  pattern: '{label} ma nieprawidłowy format.',
  file_type: '{label} musi zawierać plik typu {types}.',
  file_size: '{label} może zawierać plik o rozmiarze co najwyżej {max:size}.',
  too_many_files: '{label} przyjmuje tylko jeden plik.',
  duplicate_field: '{label} zostało wysłane więcej niż raz.',
  unique: '{label} zostało już użyte.',
  invalid: '{label} ma nieprawidłową wartość.',
  validation_failed: 'Popraw zaznaczone pola.',
  rate_limited: 'Zbyt wiele prób. Poczekaj chwilę i spróbuj ponownie.',
  invalid_key: 'Ten formularz nie jest poprawnie skonfigurowany. Powiadom właściciela strony.',
  origin_not_allowed: 'Tego formularza nie można wysłać z tej strony. Powiadom właściciela strony.',
  body_too_large: 'Wprowadzone dane są zbyt duże, by je wysłać. Skróć je lub dołącz mniejsze pliki.',
  file_too_large: 'Plik jest zbyt duży. Wybierz mniejszy.',
  challenge_failed: 'Weryfikacja, czy nie jesteś robotem, nie powiodła się. Spróbuj ponownie.',
  proof_of_work_failed:
    'Przeglądarka nie zdołała ukończyć weryfikacji antyspamowej. Odśwież stronę i spróbuj ponownie.',
  unavailable: 'Formularz nie może być teraz przyjęty. Spróbuj ponownie za kilka minut.',
  form_not_found: 'Ten formularz już nie istnieje.',
  form_closed:
    '{reason:full=Ten formularz jest pełny: nie przyjmuje już zgłoszeń.|not_open=Ten formularz nie jest jeszcze otwarty.|other=Ten formularz jest zamknięty.}',
  internal_error: 'Wystąpił błąd po naszej stronie. Spróbuj ponownie później.',
  network_error:
    'Nie udało się wysłać formularza, bo brak połączenia. Sprawdź połączenie i spróbuj ponownie.',
  unknown: 'Nie udało się wysłać formularza. Spróbuj ponownie.',
};
