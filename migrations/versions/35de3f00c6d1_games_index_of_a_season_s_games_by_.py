"""games: index of a season's games by creation (the season page's latest games)

Revision ID: 35de3f00c6d1
Revises: 78701a10108d
Create Date: 2026-11-26 01:19:05.649355

"""

from alembic import op


# revision identifiers, used by Alembic.
revision = "35de3f00c6d1"
down_revision = "78701a10108d"
branch_labels = None
depends_on = None


def upgrade():
    # No data moves. The season page lists a season's games latest first, a page at a
    # time: with (season_id, created_at, id) it reads them in index order instead of
    # sorting the whole season. The new index serves every lookup of a season's games
    # (and the foreign key's cascade) the old one on season_id alone served: created
    # first, so the table is never without one.
    op.create_index("ix_games_season_id_created_at", "games", ["season_id", "created_at", "id"], unique=False)
    op.drop_index("ix_games_season_id", table_name="games")


def downgrade():
    op.create_index("ix_games_season_id", "games", ["season_id"], unique=False)
    op.drop_index("ix_games_season_id_created_at", table_name="games")
