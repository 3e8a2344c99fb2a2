-- expand
-- C46: a field's step and the hosted page's steps. A release before it shows one page, as before.
ALTER TABLE `fields` ADD `step` integer;--> statement-breakpoint
ALTER TABLE `projects` ADD `page_steps` text;