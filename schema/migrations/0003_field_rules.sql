-- expand
ALTER TABLE `fields` ADD `rules` text;