-- expand
ALTER TABLE `api_keys` ADD `kind` text DEFAULT 'publishable' NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `retention_days` integer;