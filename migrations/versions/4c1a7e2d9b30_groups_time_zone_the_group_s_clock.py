"""groups: time_zone, the group's clock (its game nights and every time shown)

Revision ID: 4c1a7e2d9b30
Revises: 35de3f00c6d1
Create Date: 2026-11-26 09:00:00.000000

Every group gets an IANA time zone name, Europe/Paris for the groups already stored
(the app-wide ``GAME_NIGHT_TIMEZONE`` of before, Europe/Paris by default). The times
shown and the game nights are read on it (companion/games/results.py ``night_of``).

Data: a game's rated matches now belong to the game's own night (the night it
started), as its results always did, so the stored results, matches and ratings are
recomputed by ``results.rebuild`` — now at the end of 7d2f5e8a1c44 (games.ending),
since the code of today reads a column this migration predates (the call in
c521772577e2 was a no-op for the same reason).
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "4c1a7e2d9b30"
down_revision = "35de3f00c6d1"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("time_zone", sa.String(length=64), server_default="Europe/Paris", nullable=False)
        )
    # The stored results are recomputed at the end of 7d2f5e8a1c44 (see above).


def downgrade():
    # The nights stay as they are: the same under Europe/Paris but for games that
    # crossed the cut-off hour, which the next write of such a game settles.
    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.drop_column("time_zone")
