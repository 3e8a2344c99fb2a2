-- expand
ALTER TABLE `projects` ADD `page_turnstile_site_key` text;