"""Forms for groups, players and seasons."""

from __future__ import annotations

from datetime import date
from typing import Any

import sqlalchemy as sa
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, InputRequired, Length, ValidationError

from companion.extensions import db
from companion.models import NAME_MAX, Group, Player, Season, name_key


def _strip(value: Any) -> Any:
    return " ".join(value.split()) if isinstance(value, str) else value


class GroupForm(FlaskForm):
    """Create a group."""

    name = StringField(
        _l("Group name"),
        filters=[_strip],
        validators=[
            DataRequired(_l("Give the group a name.")),
            Length(max=NAME_MAX, message=_l("At most %(max)d characters.", max=NAME_MAX)),
        ],
    )
    passphrase = PasswordField(
        _l("Passphrase"),
        validators=[
            InputRequired(_l("Choose a passphrase.")),
            Length(min=6, max=200, message=_l("The passphrase needs 6 to 200 characters.")),
        ],
    )
    confirm = PasswordField(
        _l("Passphrase again"),
        validators=[EqualTo("passphrase", message=_l("The two passphrases differ."))],
    )
    submit = SubmitField(_l("Create the group"))


class JoinForm(FlaskForm):
    """Join a group with its code and passphrase."""

    code = StringField(
        _l("Group code"),
        filters=[lambda v: v.strip().upper() if isinstance(v, str) else v],
        validators=[DataRequired(_l("Give the group's code.")), Length(max=12, message=_l("This code is too long."))],
    )
    passphrase = PasswordField(_l("Passphrase"), validators=[InputRequired(_l("Give the passphrase."))])
    submit = SubmitField(_l("Join"))


class PlayerForm(FlaskForm):
    """Add or rename a player; names are unique in a group, whatever their case."""

    name = StringField(
        _l("Name"),
        filters=[_strip],
        validators=[
            DataRequired(_l("Give a name.")),
            Length(max=NAME_MAX, message=_l("At most %(max)d characters.", max=NAME_MAX)),
        ],
    )
    submit = SubmitField(_l("Save"))

    def __init__(self, group: Group, player: Player | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.group = group
        self.player = player

    def validate_name(self, field: StringField) -> None:
        """No two players of a group share a name."""
        query = sa.select(Player.id).where(Player.group_id == self.group.id, Player.name_key == name_key(field.data))
        if self.player is not None:
            query = query.where(Player.id != self.player.id)
        if db.session.scalar(query) is not None:
            raise ValidationError(_l("This group already has a player named %(name)s.", name=field.data))


class SeasonForm(FlaskForm):
    """Start a new season."""

    name = StringField(
        _l("Season name"),
        filters=[_strip],
        validators=[
            DataRequired(_l("Give the season a name.")),
            Length(max=NAME_MAX, message=_l("At most %(max)d characters.", max=NAME_MAX)),
        ],
    )
    starts_on = DateField(_l("Start"), default=date.today, validators=[InputRequired(_l("Give a valid date."))])
    submit = SubmitField(_l("Start the season"))

    def __init__(self, group: Group, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.group = group

    def validate_name(self, field: StringField) -> None:
        """Season names are unique in a group, so standings can be told apart."""
        names = {
            name_key(s.name) for s in db.session.scalars(sa.select(Season).where(Season.group_id == self.group.id))
        }
        if name_key(field.data) in names:
            raise ValidationError(_l("This group already has a season named %(name)s.", name=field.data))
