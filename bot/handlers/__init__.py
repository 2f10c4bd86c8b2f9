"""Telegram updates in: one router per feature (lobby, table, private, help,
home), the middlewares every update passes (its log context and metrics, its
chat's turn), and the dispatcher that holds them (`build_dispatcher`).

Handlers only translate between Telegram and the game service (`bot.service`);
they decide no rule.
"""
