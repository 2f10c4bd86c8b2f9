"""Talking to Telegram: every request's pace and retries (`call_policy`,
`pace`), per-key locks, and what came of a send or an edit (`messenger`).

Knows no game: it carries whatever the service asks it to."""
