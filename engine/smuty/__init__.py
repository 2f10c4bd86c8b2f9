"""The 15 смуты (shared/rules/smuty.ru.txt; RULES.md §6), one module each.

`start_smuta` resolves a смута for its initiator: it pushes a `SmutaEndFrame`
and then the смута's own effect on top of it. When the effect is done the end
frame puts the card away (смута discard, or the Пророк stack) and, for a смута
that was drawn or replayed by Шут, ends the initiator's turn — or starts it
again after Предательство or with a permanent Замок Власти.
"""

from __future__ import annotations

from engine.smuty import (  # noqa: F401  (each module registers its смута)
    betrayal,
    campaign,
    conspiracy,
    drought,
    earthquake,
    feast,
    fire,
    grail,
    inquisition,
    new_era,
    pestilence,
    poison,
    prophet,
    reformation,
    thrones,
)
from engine.smuty.base import ROUNDS, STARTS, start_smuta

__all__ = ["ROUNDS", "STARTS", "start_smuta"]
