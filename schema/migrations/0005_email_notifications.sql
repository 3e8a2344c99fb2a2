-- expand
ALTER TABLE `projects` ADD `reply_to_field` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `kind` text DEFAULT 'webhook' NOT NULL;