import type { Templates } from './codes.ts';

export const ja: Templates = {
  label: '{label:=この項目|other=「#」}',
  type: '{label}は{type:string=文字列|integer=整数|number=数値|boolean=「はい」か「いいえ」|file=ファイル|other=#型の値}である必要があります。',
  required: '{label}は必須です。',
  unknown_field: '{label}はこのフォームの項目ではありません。',
  min_length: '{label}は{min}文字以上で入力してください。',
  max_length: '{label}は{max}文字以内で入力してください。',
  min: '{label}には{min}以上の値を入力してください。',
  max: '{label}には{max}以下の値を入力してください。',
  format:
    '{label}には{format:email=メールアドレス|url=URL|date=日付（YYYY-MM-DD）|date-time=日時|uuid=UUID|other=#形式の値}を入力してください。',
  one_of: '{label}には{values:「#」}を入力してください。',
  pattern: '{label}の形式が正しくありません。',
  file_type: '{label}には{types}形式のファイルを指定してください。',
  file_size: '{label}のファイルは{max:size}以下にしてください。',
  too_many_files: '{label}に指定できるファイルは1つだけです。',
  duplicate_field: '{label}が複数回送信されました。',
  unique: '{label}はすでに使用されています。',
  invalid: '{label}の値が正しくありません。',
  validation_failed: '入力内容を確認してください。',
  rate_limited: '試行回数が多すぎます。しばらく待ってから、もう一度お試しください。',
  invalid_key: 'このフォームは正しく設定されていません。サイトの管理者にお知らせください。',
  origin_not_allowed: 'このフォームはこのサイトから送信できません。サイトの管理者にお知らせください。',
  body_too_large:
    '入力内容が大きすぎるため送信できません。内容を減らすか、より小さいファイルを添付してください。',
  file_too_large: 'ファイルが大きすぎます。より小さいファイルを選択してください。',
  challenge_failed: 'ロボットでないことの確認に失敗しました。もう一度お試しください。',
  proof_of_work_failed:
    'ブラウザーでスパム対策の確認を完了できませんでした。ページを再読み込みして、もう一度お試しください。',
  unavailable: '現在フォームを受け付けられません。数分後にもう一度お試しください。',
  form_not_found: 'このフォームはもう存在しません。',
  form_closed:
    '{reason:full=このフォームは定員に達したため、受け付けを終了しました。|not_open=このフォームはまだ受け付けを開始していません。|other=このフォームの受け付けは終了しました。}',
  internal_error: 'サーバー側でエラーが発生しました。しばらくしてから、もう一度お試しください。',
  network_error: '接続がないため、フォームを送信できませんでした。接続を確認して、もう一度お試しください。',
  unknown: 'フォームを送信できませんでした。もう一度お試しください。',
};
