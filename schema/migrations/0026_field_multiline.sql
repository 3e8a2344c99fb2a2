-- expand
ALTER TABLE `fields` ADD `multiline` integer;