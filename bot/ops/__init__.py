"""Running unattended: metrics, logs (and Sentry), the health port and its probe.

The lowest layer: nothing here knows a game, a chat's words or Telegram."""
