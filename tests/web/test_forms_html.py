"""Companion's forms (companion.forms.SafeForm) leave the writing of their fields to
WTForms: each kind of field is rendered by a SafeForm and by a plain FlaskForm and the
HTML compared."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice as C
from wtforms.validators import DataRequired, Optional

from companion import create_app
from companion.forms import SafeForm


def _fields() -> dict[str, Any]:
    return {
        "name": StringField("Nom", [DataRequired()], render_kw={"data_x": '"q" & <b>', "aria_label": "l’étiquette"}),
        "points": IntegerField("Points", [Optional()], render_kw={"inputmode": "numeric", "readonly": False}),
        "seat": SelectField("Place", [DataRequired()], choices=[C("1", "Ann"), C("2", "Bob <b>"), C("3", "Cid & Dan")]),
        "grouped": SelectField(
            "Carte",
            choices=[C("Ah", "A♥", optgroup="Cœur"), C("Kh", "R♥", optgroup="Cœur"), C("As", "A♠", optgroup="Pique")],
            default="Kh",
        ),
        "flag": SelectField("Oui", choices=[C(True, "oui"), C(False, "non")], coerce=lambda v: v == "True"),
        "many": SelectMultipleField("Plusieurs", choices=[C("a", "A"), C("b", "B")], default=["b"]),
        "kw": SelectField("Options", choices=[C("x", "X", render_kw={"disabled": True, "data_n": 1}), C("y", "Y")]),
        "radio": RadioField("Qui", choices=[C("1", "Ann"), C("2", "Bob")], default="2"),
        "check": BooleanField("Coché", default=True),
        "hidden": HiddenField(default='a"b'),
        "go": SubmitField("Enregistrer"),
    }


@pytest.fixture
def app() -> Flask:
    return create_app(
        {"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )


def test_every_kind_of_field_is_written_as_wtforms_writes_it(app: Flask) -> None:
    ours = type("Ours", (SafeForm,), _fields())
    theirs = type("Theirs", (FlaskForm,), _fields())
    with app.test_request_context("/", method="POST", data={"name": "", "seat": "9", "many": ["a", "b"]}):
        mine, plain = ours(), theirs()
        mine.validate()
        plain.validate()
        for field in plain:
            other = mine[field.name]
            assert str(other()) == str(field()), field.name
            assert str(other(class_="big", required=False, data_y="1")) == str(
                field(class_="big", required=False, data_y="1")
            )
