"""A group's data in and out: CSV and JSON exports, and importing a JSON export as a
new group.

- :mod:`~companion.groups.transfer.schema`: what a JSON export is (:data:`FORMAT`,
  :data:`VERSION`, :data:`SCHEMA`);
- :mod:`~companion.groups.transfer.export`: the exports (CSV and JSON) and their pages;
- :mod:`~companion.groups.transfer.reading`: reading an imported file
  (:func:`parse_file`), refused (:class:`Refused`) as soon as it is not one the app
  wrote;
- :mod:`~companion.groups.transfer.checking`: checking it to its last field, every
  game rescored (:func:`check_document`, its :class:`Plan`);
- :mod:`~companion.groups.transfer.importing`: writing it as a new group, in short
  parts (:func:`prepare`, :func:`write_group`), and the import page;
- :mod:`~companion.groups.transfer.unfinished`: the lock an import holds on its group
  (:class:`ImportLock`), and the removal of what an import killed part way left
  (:func:`remove_unfinished`, ``flask clean-imports``: :func:`init_app`).

Importing this package registers the routes of its modules on the groups blueprint
(and nothing else: the command is registered by :func:`init_app`).
A setting is read where it is defined (:data:`MAX_IMPORT_BYTES` in ``reading``,
``ROWS_PER_TURN`` in ``importing``…): a test changes it there, not here.
"""

from companion.groups.transfer.checking import Plan, check_document
from companion.groups.transfer.export import (
    csv_rows,
    export_csv,
    export_csv_text,
    export_document,
    export_json,
    export_page,
    slug,
)
from companion.groups.transfer.importing import ImportForm, Rows, import_group, prepare, write_group
from companion.groups.transfer.reading import MAX_DEPTH, MAX_IMPORT_BYTES, Refused, parse_file
from companion.groups.transfer.schema import FORMAT, SCHEMA, VERSION
from companion.groups.transfer.unfinished import ImportLock, discard, init_app, remove_unfinished

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_IMPORT_BYTES",
    "SCHEMA",
    "VERSION",
    "ImportForm",
    "ImportLock",
    "Plan",
    "Refused",
    "Rows",
    "check_document",
    "csv_rows",
    "discard",
    "export_csv",
    "export_csv_text",
    "export_document",
    "export_json",
    "export_page",
    "import_group",
    "init_app",
    "parse_file",
    "prepare",
    "remove_unfinished",
    "slug",
    "write_group",
]
