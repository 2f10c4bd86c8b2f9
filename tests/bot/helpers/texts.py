"""Names long enough to test the texts' limits."""

from __future__ import annotations

LONG_NAMES = [
    "Александра Константинопольская 1",
    "Maximilian-Alexander von Habsbur",
    "Анна-Мария <Королева> & Ко Смуты",
    "Елизавета Петровна Романова-Толс",
    "Christopher Montgomery-Fairweath",
    "Святослав Всеволодович Черниговс",
]
