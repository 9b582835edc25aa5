"""What every form of the app shares: text a database can store, plain whole numbers,
and a one-time token that makes a creating form idempotent.

Every form derives from :class:`SafeForm`.  A text value with a character that
PostgreSQL refuses (NUL) or that no UTF-8 database stores (a lone surrogate), or
another control character no one types, is refused at its field *before* any
other validator runs, so it never reaches a query.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, HiddenField
from wtforms.validators import ValidationError

from companion.i18n import TypesetTranslations
from companion.i18n import gettext as _

#: Characters refused in any text: C0 controls but tab, newline and carriage return,
#: DEL, and lone surrogates (which cannot be encoded in UTF-8).
_REFUSED = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_PLAIN_INT = re.compile(r"[0-9]+")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def storable(text: str) -> bool:
    """Whether ``text`` can be stored as typed: no NUL, no control character, no lone surrogate.

    >>> storable("Téléphone d’Ann"), storable("AB\\x00CD"), storable("\\ud800")
    (True, False, False)
    """
    return _REFUSED.search(text) is None


def plain_int(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``, or None.

    Only the ASCII digits 0–9 count: ``²``, ``٣``, signs, spaces inside and numbers of
    thousands of digits are refused without being converted.

    >>> plain_int("42", 0, 500), plain_int("²", 0, 500), plain_int("9" * 5000, 0, 500)
    (42, None, None)
    """
    text = text.strip()
    if not _PLAIN_INT.fullmatch(text) or len(text) > len(str(high)) + 2:
        return None
    value = int(text)
    return value if low <= value <= high else None


def _all_data(field: Field) -> list[Any]:
    """The raw values of a field, one per entry for list-like fields."""
    entries = getattr(field, "entries", None)
    if entries is not None:
        return [value for entry in entries for value in _all_data(entry)]
    subfields = getattr(field, "form", None)
    if isinstance(subfields, FlaskForm):
        return [value for sub in subfields for value in _all_data(sub)]
    return [field.data]


def add_error(field: Field, message: str) -> None:
    """Add ``message`` to ``field``'s errors (a tuple until the field was validated)."""
    field.errors = [*field.errors, message]


class SafeForm(FlaskForm):
    """The base of every form: refuses text a database cannot store, at its field; its
    WTForms messages are French as a French table writes it."""

    class Meta(FlaskForm.Meta):
        def get_translations(self, form: Any) -> Any:
            inner = super().get_translations(form)
            return None if inner is None else TypesetTranslations(inner)

    def validate(self, extra_validators: Any = None) -> bool:
        """Refuse unstorable text first (no query ever sees it), then the usual validation."""
        clean = True
        for field in self:
            for value in _all_data(field):
                if isinstance(value, str) and not storable(value):
                    field.errors = [*field.errors, _("This text holds a character that cannot be kept.")]
                    clean = False
                    break
        if not clean:
            return False
        return bool(super().validate(extra_validators))


def new_token() -> str:
    """A fresh one-time form token."""
    return secrets.token_urlsafe(24)


def _check_token(form: FlaskForm, field: HiddenField) -> None:
    if not isinstance(field.data, str) or not _TOKEN.fullmatch(field.data):
        raise ValidationError(_l("This form has expired. Go back, reload the page and send it again."))


class OnceForm(SafeForm):
    """A creating form: it carries a one-time token, so sending it twice creates once
    (see :mod:`companion.writes`)."""

    once = HiddenField(default=new_token, validators=[_check_token])
