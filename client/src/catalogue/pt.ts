import type { Templates } from './codes.ts';

// Worded for Portugal and Brazil alike where they differ little ("arquivo" is Brazil's file).
export const pt: Templates = {
  label: '{label:=Este campo|other=O campo “#”}',
  type: '{label} deve ser {type:string=um texto|integer=um número inteiro|number=um número|boolean=sim ou não|file=um arquivo|other=do tipo #}.',
  required: '{label} é obrigatório.',
  unknown_field: '{label} não faz parte deste formulário.',
  min_length: '{label} deve ter pelo menos {min:one=# caractere|many=# de caracteres|other=# caracteres}.',
  max_length: '{label} deve ter no máximo {max:one=# caractere|many=# de caracteres|other=# caracteres}.',
  min: '{label} deve ser maior ou igual a {min}.',
  max: '{label} deve ser menor ou igual a {max}.',
  format:
    '{label} deve conter {format:email=um endereço de e-mail|url=um endereço web (URL)|date=uma data (AAAA-MM-DD)|date-time=uma data e uma hora|uuid=um UUID|other=um valor no formato #}.',
  one_of: '{label} deve ser {values:“#”}.',
  pattern: '{label} não está no formato esperado.',
  file_type: '{label} deve conter um arquivo do tipo {types}.',
  file_size: '{label} não pode ultrapassar {max:size}.',
  too_many_files: '{label} aceita apenas um arquivo.',
  duplicate_field: '{label} foi enviado mais de uma vez.',
  unique: '{label} já foi utilizado.',
  invalid: '{label} não é válido.',
  validation_failed: 'Verifique os campos destacados.',
  rate_limited: 'Muitas tentativas. Aguarde um momento e tente novamente.',
  invalid_key: 'Este formulário não está configurado corretamente. Avise o responsável pelo site.',
  origin_not_allowed:
    'Este formulário não pode ser enviado a partir deste site. Avise o responsável pelo site.',
  body_too_large:
    'Os dados preenchidos são grandes demais para serem enviados. Reduza-os ou anexe arquivos menores.',
  file_too_large: 'Um arquivo é grande demais. Escolha um menor.',
  challenge_failed: 'A verificação anti-robô falhou. Tente novamente.',
  proof_of_work_failed:
    'O navegador não conseguiu concluir a verificação anti-spam. Recarregue a página e tente novamente.',
  unavailable: 'Não é possível receber o formulário neste momento. Tente novamente dentro de alguns minutos.',
  form_not_found: 'Este formulário já não existe.',
  form_closed:
    '{reason:full=Este formulário está completo: não aceita mais envios.|not_open=Este formulário ainda não está aberto.|other=Este formulário está fechado.}',
  internal_error: 'Ocorreu um erro do nosso lado. Tente novamente mais tarde.',
  network_error:
    'Não foi possível enviar o formulário por falta de conexão. Verifique a conexão e tente novamente.',
  unknown: 'Não foi possível enviar o formulário. Tente novamente.',
};
