"""A password strength check besides length and the common-password list (config/settings.py).

`aaaaaaaaaaaa` and `123456789012` are long enough and not on Django's list, yet a guesser tries them
first. Refused:
- a password made mostly of one character (`aaaaaaaaaaab`),
- a password that is one short pattern repeated (`abcabcabcabc`, `Passw0rdPassw0rd`),
- a password that is mostly a run of sequential characters, up or down (`abcdefghijkl`, `987654321098`,
  keyboard rows such as `qwertyuiop`),
- a password with fewer than 5 different characters.
"""

from __future__ import annotations

import itertools

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

KEYBOARD_ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm", "qwertzuiop", "azertyuiop")


def _sequential_run(password: str) -> int:
    """The length of the longest run of consecutive characters (alphabet, digits or a keyboard row),
    ascending or descending."""
    text = password.lower()
    best = run = 1 if text else 0
    for a, b in itertools.pairwise(text):
        step = ord(b) - ord(a)
        in_row = any((a + b) in row or (b + a) in row for row in KEYBOARD_ROWS if a in row and b in row)
        if step in (1, -1) or in_row:
            run += 1
        else:
            run = 1
        best = max(best, run)
    return best


def _is_repetition(password: str) -> bool:
    n = len(password)
    return any(n % size == 0 and password == password[:size] * (n // size) for size in range(1, n // 2 + 1))


class StrengthValidator:
    """Repeated and sequential characters (see the module docstring)."""

    def __init__(self, min_unique: int = 5) -> None:
        self.min_unique = min_unique

    def validate(self, password: str, user=None) -> None:
        if not password:
            return
        most = max(password.count(c) for c in set(password))
        if most * 2 > len(password) or _is_repetition(password):
            raise ValidationError(
                _("This password repeats the same characters; choose one that does not."),
                code="password_repeated",
            )
        if _sequential_run(password) * 2 > len(password):
            raise ValidationError(
                _("This password is mostly a sequence of characters (like abcdef or 123456)."),
                code="password_sequential",
            )
        if len(set(password)) < self.min_unique:
            raise ValidationError(
                _("This password has fewer than %(count)s different characters.")
                % {"count": self.min_unique},
                code="password_too_few_characters",
            )

    def get_help_text(self) -> str:
        return _("Your password cannot be mostly repeated or sequential characters.")
