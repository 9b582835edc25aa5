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
from copy import copy
from typing import Any
from weakref import WeakKeyDictionary

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import Field, HiddenField
from wtforms.validators import ValidationError
from wtforms.widgets import core as widgets

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


def html_params(**kwargs: Any) -> Markup:
    """WTForms' ``html_params``, attribute for attribute, without ``Markup.format``
    (a Python-level formatter: a round form's fields spent a third of the page's time
    there).

    >>> html_params(class_="a", data_x_y='"1"', aria_invalid="false", checked=True, readonly=False)
    Markup('aria-invalid="false" checked class="a" data-x-y="&#34;1&#34;"')
    """
    params = []
    for key, value in sorted(kwargs.items()):
        key = key.rstrip("_")
        if key.startswith(("data_", "aria_")):
            key = key.replace("_", "-")
        if value is True:
            params.append(str(escape(key)))
        elif value is not False:
            params.append(f'{escape(key)}="{str(escape(value)).replace(chr(34), "&quot;")}"')
    return Markup(" ".join(params))


class _Select(widgets.Select):
    """WTForms' ``Select``, the same HTML, its attributes and options written with
    :func:`html_params` (WTForms' select calls its module's ``html_params`` directly: a
    hand's form has seat and rank lists whose options took a fifth of the page's time)."""

    def __call__(self, field: Field, **kwargs: Any) -> Markup:
        kwargs.setdefault("id", field.id)
        if self.multiple:
            kwargs["multiple"] = True
        flags = getattr(field, "flags", {})
        for k in dir(flags):
            if k in self.validation_attrs and k not in kwargs:
                kwargs[k] = getattr(flags, k)
        html = [f"<select {html_params(name=field.name, **kwargs)}>"]
        if field.has_groups():  # type: ignore[attr-defined]
            for optgroup, choices in field._iter_groups_normalized():  # type: ignore[attr-defined]
                if optgroup is not None:
                    html.append(f"<optgroup {html_params(label=optgroup)}>")
                html.extend(self.render_option(choice) for choice in choices)
                if optgroup is not None:
                    html.append("</optgroup>")
        else:
            html.extend(self.render_option(choice) for choice in field._iter_choices_normalized())  # type: ignore[attr-defined]
        html.append("</select>")
        return Markup("".join(html))

    @classmethod
    def render_option(cls, choice: Any, **kwargs: Any) -> Markup:
        value = choice.value
        if isinstance(value, bool):
            value = str(value)
        options = {"value": value, **(choice.render_kw or {}), **kwargs}
        if choice.selected:
            options["selected"] = True
        return Markup(f"<option {html_params(**options)}>{escape(choice.label or choice.value)}</option>")


_FAST_WIDGETS: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()


def _fast(widget: Any) -> Any:
    """A twin of ``widget`` writing its attributes with :func:`html_params` (for WTForms'
    inputs and buttons, whose ``html_params`` is an attribute meant to be replaced, and
    its select); any other widget as it is."""
    if type(widget) is widgets.Select:
        twin = _FAST_WIDGETS.get(widget)
        if twin is None:
            twin = _FAST_WIDGETS[widget] = _Select(multiple=widget.multiple)
        return twin
    if getattr(widget, "html_params", None) is not widgets.html_params:
        return widget
    twin = _FAST_WIDGETS.get(widget)
    if twin is None:
        twin = copy(widget)
        twin.html_params = html_params
        _FAST_WIDGETS[widget] = twin
    return twin


class SafeForm(FlaskForm):
    """The base of every form: refuses text a database cannot store, at its field; its
    WTForms messages are French as a French table writes it."""

    class Meta(FlaskForm.Meta):
        def get_translations(self, form: Any) -> Any:
            inner = super().get_translations(form)
            return None if inner is None else TypesetTranslations(inner)

        def render_field(self, field: Field, render_kw: dict[str, Any]) -> Markup:
            """As WTForms renders a field, with :func:`html_params` (same HTML)."""
            render_kw = {widgets.clean_key(k): v for k, v in render_kw.items()}
            other = getattr(field, "render_kw", None)
            if other is not None:
                render_kw = dict({widgets.clean_key(k): v for k, v in other.items()}, **render_kw)
            return _fast(field.widget)(field, **render_kw)  # type: ignore[no-any-return]

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
