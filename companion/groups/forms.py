"""Forms for groups, players and seasons."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import sqlalchemy as sa
from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    DateField,
    Field,
    HiddenField,
    PasswordField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import EqualTo, InputRequired, Length, ValidationError

from companion.clock import listed_zones, valid_zone, zone_choices, zone_place
from companion.collation import sorted_names
from companion.extensions import db
from companion.forms import OnceForm, SafeForm
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.membership.forms import device_name_field, name_field, trim
from companion.models import Group, Player, Season, name_key


def typed_passphrases(field: PasswordField) -> list[str]:
    """What a passphrase field may mean: the text typed, trimmed, then as typed when it
    had spaces at its ends (a group created before passphrases were trimmed may have
    them in its passphrase). Both are checked when the first is wrong, so a wrong
    passphrase costs the same whatever was typed around it."""
    trimmed = field.data or ""
    raw = field.raw_data[0] if field.raw_data and isinstance(field.raw_data[0], str) else trimmed
    return [trimmed] if raw == trimmed else [trimmed, raw]


def _season_start(form: Any, field: DateField) -> None:
    """A start date within reason: from 2000 to a year ahead."""
    if field.data is not None and not date(2000, 1, 1) <= field.data <= date.today() + timedelta(days=365):
        raise ValidationError(_("Choose a date between 2000 and a year from now."))


class GroupForm(OnceForm):
    """Create a group (the creating device joins it)."""

    name = name_field(_l("Group name"), _l("Give the group a name."))
    passphrase = PasswordField(
        _l("Passphrase"),
        filters=[trim],
        validators=[
            InputRequired(_l("Choose a passphrase.")),
            Length(min=6, max=200, message=_l("The passphrase needs 6 to 200 characters.")),
        ],
    )
    confirm = PasswordField(
        _l("Passphrase again"),
        filters=[trim],
        validators=[EqualTo("passphrase", message=_l("The two passphrases differ."))],
    )
    device_name = device_name_field()
    submit = SubmitField(_l("Create the group"))


class DeviceForm(SafeForm):
    """Rename this device."""

    name = name_field(_l("Name of this device"), _l("Give a name."))
    submit = SubmitField(_l("Rename"))


class WhoForm(SafeForm):
    """Which player this device belongs to (« Qui êtes-vous ? »): one of the group's
    players, or nobody of the list. « moi » in a round said in one line is that player."""

    player = RadioField(_l("Who are you?"), validate_choice=False, default="")
    submit = SubmitField(_l("That is me"))

    def __init__(self, players: list[Player], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.players_by_id = {str(p.id): p for p in players}
        self.player.choices = [
            *(SelectChoice(str(p.id), p.name) for p in sorted_names(players, key=lambda p: p.name)),
            SelectChoice("", _("Nobody of this list")),
        ]

    def validate_player(self, field: RadioField) -> None:
        """A player of this group, or nobody."""
        if field.data and field.data not in self.players_by_id:
            raise ValidationError(_("Choose a player of the group."))

    @property
    def chosen(self) -> Player | None:
        """The player chosen (None: nobody of the list)."""
        return self.players_by_id.get(self.player.data or "")


class PassphraseForm(SafeForm):
    """Change the group's passphrase, optionally signing every other device out."""

    current = PasswordField(
        _l("Current passphrase"),
        filters=[trim],
        validators=[InputRequired(_l("Give the passphrase.")), Length(max=200, message=_l("Wrong passphrase."))],
    )
    passphrase = PasswordField(
        _l("New passphrase"),
        filters=[trim],
        validators=[
            InputRequired(_l("Choose a passphrase.")),
            Length(min=6, max=200, message=_l("The passphrase needs 6 to 200 characters.")),
        ],
    )
    confirm = PasswordField(
        _l("New passphrase again"),
        filters=[trim],
        validators=[EqualTo("passphrase", message=_l("The two passphrases differ."))],
    )
    sign_out_others = BooleanField(_l("Sign every other device out"))
    submit = SubmitField(_l("Change the passphrase"))

    def __init__(self, group: Group, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.group = group

    def validate_current(self, field: PasswordField) -> None:
        """Only who knows the passphrase may change it."""
        if not any([self.group.check_passphrase(typed) for typed in typed_passphrases(field)]):
            raise ValidationError(_("Wrong passphrase."))


class PlayerForm(OnceForm):
    """Add or rename a player; names are unique in a group, whatever their case."""

    name = name_field(_l("Name"), _l("Give a name."))
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
            # gettext, not lazy_gettext: a lazy string is rendered as markup, unescaped.
            raise ValidationError(_("This group already has a player named %(name)s.", name=field.data))


class SeasonForm(OnceForm):
    """Start a new season."""

    name = name_field(_l("Season name"), _l("Give the season a name."))
    starts_on = DateField(
        _l("Start"), default=date.today, validators=[InputRequired(_l("Give a valid date.")), _season_start]
    )
    submit = SubmitField(_l("Start the season"))

    def __init__(self, group: Group, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.group = group

    def validate_name(self, field: StringField) -> None:
        """Season names are unique in a group, so standings can be told apart."""
        query = sa.select(Season.id).where(Season.group_id == self.group.id, Season.name_key == name_key(field.data))
        if db.session.scalar(query) is not None:
            raise ValidationError(_("This group already has a season named %(name)s.", name=field.data))


class TokenJoinForm(SafeForm):
    """Join a group by its QR code: no code, no passphrase, only this device's name."""

    device_name = device_name_field()
    submit = SubmitField(_l("Join"))


def _known_zone(form: Any, field: Field) -> None:
    """A zone of the IANA database, as ``zoneinfo`` names it (« Europe/Paris »)."""
    if not valid_zone(field.data):
        raise ValidationError(
            _("Choose a time zone from the list, such as %(zone)s.", zone=zone_place("Europe/Paris", current_lang()))
        )


class ClockForm(SafeForm):
    """The group's time zone (its clock: the times shown, the game nights). It carries
    the zone it was shown with: of two phones changing it at once, the second is told."""

    time_zone = SelectField(_l("Time zone"), choices=[], validate_choice=False, validators=[_known_zone])
    shown = HiddenField()
    submit = SubmitField(_l("Save the time zone"))

    def __init__(self, current: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        lang = current_lang()
        common, every = (choices for _key, choices in zone_choices(lang))
        # The group's own zone is offered even when the lists name it otherwise (an old
        # id of the tz database, kept as it was chosen): the select shows it chosen.
        if current and valid_zone(current) and all(current != n for n, _place in common + every):
            common = [(current, zone_place(current, lang)), *common]
        # The zones a French table most likely sits in first, then all of them, by place.
        self.time_zone.choices = {_("Common"): common, _("Every zone"): every}
        #: The ids a phone may give that the list names otherwise (a browser says
        #: Asia/Calcutta, the list Asia/Kolkata): the listed id of each, for
        #: static/clock.js to choose it.
        offered = {n for n, _place in common + every}
        self.zone_aliases = {n: to for n, to in listed_zones().items() if n not in offered and to in offered}
