"""The Mini App: the table as cards, live, and the choice at hand a tap away.

An inbound layer beside `bot.handlers`: where `handlers` turn Telegram updates
into service calls, this turns the app's HTTP calls into the same service
calls (`bot.service`), and serves the page (``static/``: plain HTML, CSS and
JavaScript, no build step).

- `auth`: who calls (the Web App's ``initData``, checked);
- `payload`: what a seat may see, as JSON, in the chat's words;
- `live`: one pub/sub subscriber a process, fanned out to its viewers;
- `limits`: per-user rate limits;
- `page`: the page as served (one document, its CSP);
- `server`: the routes.
"""
