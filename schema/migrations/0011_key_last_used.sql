-- expand
ALTER TABLE `api_keys` ADD `last_used_at` text;