-- expand
ALTER TABLE `webhooks` ADD `config` text;