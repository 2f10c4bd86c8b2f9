"""Смута's Telegram front end (aiogram 3): lobby, table, private hands and prompts."""
