"""live manches: the play-by-play a game's table follows

Revision ID: a74014ce70d2
Revises: 10e8294c9db8
Create Date: 2026-11-22 10:29:33.161125

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "a74014ce70d2"
down_revision = "10e8294c9db8"
branch_labels = None
depends_on = None


def upgrade():
    # One row per game: the manche its table follows move by move (a new table, no data to move).
    op.create_table(
        "live_manches",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_version", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("view", sa.JSON(), nullable=True),
        sa.Column("history", sa.JSON(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("entry", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_live_manches_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_live_manches")),
    )


def downgrade():
    op.drop_table("live_manches")
