"""The texts: ``<lang>/*.ftl`` (Project Fluent), shipped inside the package as
package data so an installed bot finds them wherever it is started from.
`bot.words.i18n` reads them through `importlib.resources`."""
