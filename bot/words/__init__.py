"""What people read and press: translations (`i18n`), names, the table and the
events (`render`), the private prompts (`prompts`), /card and /rules (`help`),
and the buttons with their callback data (`keyboards`).

Reads engine views and the stored record; sends nothing and keeps nothing."""
