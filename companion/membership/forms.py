"""The forms of membership: joining a group by its code and passphrase, and the name
field every form of a name shares (group, device, player, season: ``companion.groups.forms``)."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, InputRequired, Length, Optional, ValidationError

from companion.forms import SafeForm
from companion.i18n import gettext as _
from companion.models import NAME_MAX, clean_name, visible
from companion.names import refusal


def _strip(value: Any) -> Any:
    return clean_name(value) if isinstance(value, str) else value


def _visible(form: Any, field: StringField) -> None:
    """A name must show something: not only invisible or control characters."""
    if field.data and not visible(field.data):
        raise ValidationError(_("This name shows nothing: use letters, digits or signs."))


def _honest(form: Any, field: StringField) -> None:
    """A name holds nothing that changes how the text around it reads (``companion.names``)."""
    why = refusal(field.data) if field.data and visible(field.data) else None  # else said once, above
    if why is not None:
        raise ValidationError(why)


def trim(value: Any) -> Any:
    """A passphrase without the spaces at its ends (a phone's keyboard adds one after a
    word); the spaces inside are the passphrase's own."""
    return value.strip() if isinstance(value, str) else value


def name_field(label: Any, required: Any = None) -> StringField:
    """A name: spaces folded, NFC, at most NAME_MAX characters, showing something and
    nothing that changes how the text around it reads; ``required`` is the message when
    it is missing (None: optional)."""
    presence = DataRequired(required) if required is not None else Optional()
    return StringField(
        label,
        filters=[_strip],
        validators=[
            presence,
            Length(max=NAME_MAX, message=_l("At most %(max)d characters.", max=NAME_MAX)),
            _visible,
            _honest,
        ],
    )


def device_name_field() -> StringField:
    return name_field(_l("Name of this device"))


class JoinForm(SafeForm):
    """Join a group with its code and passphrase."""

    code = StringField(
        _l("Group code"),
        filters=[lambda v: v.strip().upper() if isinstance(v, str) else v],
        validators=[DataRequired(_l("Give the group's code.")), Length(max=12, message=_l("This code is too long."))],
    )
    passphrase = PasswordField(
        _l("Passphrase"),
        filters=[trim],
        validators=[
            InputRequired(_l("Give the passphrase.")),
            Length(max=200, message=_l("Wrong code or passphrase.")),
        ],
    )
    device_name = device_name_field()
    submit = SubmitField(_l("Join"))
