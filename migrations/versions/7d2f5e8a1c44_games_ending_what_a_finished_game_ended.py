"""games.ending: what a finished game ended with (was games.outcome)

Revision ID: 7d2f5e8a1c44
Revises: 4c1a7e2d9b30
Create Date: 2026-11-26 15:00:00.000000

A rename only (issue 25: « outcome » now means one thing in the code, the outcome of a
round the rules API answers): ``games.outcome`` becomes ``games.ending``, its JSON
(``{"winners": [...], "early": true}``) unchanged. An export file keeps its ``outcome``
key (files already exported read the same).

Data: the stored results are recomputed by ``results.rebuild`` at the end, as the code
of today reads the renamed column (the call in 4c1a7e2d9b30 is now a no-op: that
migration runs before this rename).
"""

from alembic import op


# revision identifiers, used by Alembic.
revision = "7d2f5e8a1c44"
down_revision = "4c1a7e2d9b30"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("outcome", new_column_name="ending")
    from companion.games.results import rebuild

    rebuild(op.get_bind())


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("ending", new_column_name="outcome")
