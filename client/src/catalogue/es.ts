import type { Templates } from './codes.ts';

export const es: Templates = {
  label: '{label:=Este campo|other=El campo «#»}',
  type: '{label} debe ser {type:string=un texto|integer=un número entero|number=un número|boolean=sí o no|file=un archivo|other=de tipo #}.',
  required: '{label} es obligatorio.',
  unknown_field: '{label} no forma parte de este formulario.',
  min_length: '{label} debe tener al menos {min:one=# carácter|many=# de caracteres|other=# caracteres}.',
  max_length: '{label} debe tener como máximo {max:one=# carácter|many=# de caracteres|other=# caracteres}.',
  min: '{label} debe ser mayor o igual que {min}.',
  max: '{label} debe ser menor o igual que {max}.',
  format:
    '{label} debe contener {format:email=una dirección de correo electrónico|url=una dirección web (URL)|date=una fecha (AAAA-MM-DD)|date-time=una fecha y una hora|uuid=un UUID|other=un valor con el formato #}.',
  one_of: '{label} debe ser {values:«#»}.',
  pattern: '{label} no tiene el formato esperado.',
  file_type: '{label} debe contener un archivo de tipo {types}.',
  file_size: '{label} no puede superar {max:size}.',
  too_many_files: '{label} admite un solo archivo.',
  duplicate_field: '{label} se envió más de una vez.',
  unique: '{label} ya se ha utilizado.',
  invalid: '{label} no es válido.',
  validation_failed: 'Revise los campos marcados.',
  rate_limited: 'Demasiados intentos. Espere un momento y vuelva a intentarlo.',
  invalid_key: 'Este formulario no está bien configurado. Avise al responsable del sitio.',
  origin_not_allowed: 'Este formulario no se puede enviar desde este sitio. Avise al responsable del sitio.',
  body_too_large:
    'Los datos introducidos son demasiado grandes para enviarlos. Acórtelos o adjunte archivos más pequeños.',
  file_too_large: 'Un archivo es demasiado grande. Elija uno más pequeño.',
  challenge_failed: 'La comprobación de que no es un robot ha fallado. Vuelva a intentarlo.',
  proof_of_work_failed:
    'Su navegador no ha podido completar la comprobación antispam. Recargue la página y vuelva a intentarlo.',
  unavailable: 'Ahora mismo no se puede recibir el formulario. Vuelva a intentarlo dentro de unos minutos.',
  form_not_found: 'Este formulario ya no existe.',
  form_closed:
    '{reason:full=Este formulario está completo: no admite más envíos.|not_open=Este formulario aún no está abierto.|other=Este formulario está cerrado.}',
  internal_error: 'Se ha producido un error por nuestra parte. Vuelva a intentarlo más tarde.',
  network_error:
    'No se ha podido enviar el formulario porque no hay conexión. Compruébela y vuelva a intentarlo.',
  unknown: 'No se ha podido enviar el formulario. Vuelva a intentarlo.',
};
