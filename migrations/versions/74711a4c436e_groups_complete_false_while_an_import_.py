"""groups: complete, false while an import writes the group

Revision ID: 74711a4c436e
Revises: a753af025971
Create Date: 2026-12-02 00:04:40.462603

``groups.complete``: an import writes a group over many transactions and sets it in its
last one, with the importing device; until then no page finds the group (an import
killed part way leaves it incomplete). Every group already stored is complete (the
server default): before this revision an import's groups had no such mark.

Downgrade: the code of before would show a group an import left part way, so such
groups are removed first, with every row of theirs. Stop the app before downgrading:
an import still running is removed too.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '74711a4c436e'
down_revision = 'a753af025971'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.add_column(sa.Column('complete', sa.Boolean(), server_default=sa.true(), nullable=False))


#: What a group an import left part way holds, children first: on SQLite the migrations
#: run with foreign keys off (migrations/env.py), so nothing cascades. Only its games'
#: and seasons' rows, its players and seasons (no device, invitation or display link: a
#: group gets those once complete, from its devices).
_UNFINISHED = "SELECT id FROM groups WHERE NOT complete"
_SEASONS = f"SELECT id FROM seasons WHERE group_id IN ({_UNFINISHED})"
_GAMES = f"SELECT id FROM games WHERE season_id IN ({_SEASONS})"
_REMOVED = [
    f"DELETE FROM match_places WHERE match_id IN (SELECT id FROM rated_matches WHERE season_id IN ({_SEASONS}))",
    *(
        f"DELETE FROM {table} WHERE season_id IN ({_SEASONS})"
        for table in ("rated_matches", "rating_history", "player_ratings", "season_totals", "game_results")
    ),
    *(
        f"DELETE FROM {table} WHERE game_id IN ({_GAMES})"
        for table in ("rounds", "game_changes", "game_players", "live_manches", "display_links")
    ),
    f"DELETE FROM games WHERE id IN ({_GAMES})",
    *(
        f"DELETE FROM {table} WHERE group_id IN ({_UNFINISHED})"
        for table in ("display_links", "join_tokens", "devices", "players", "seasons")
    ),
    f"DELETE FROM groups WHERE id IN ({_UNFINISHED})",
]


def downgrade():
    for statement in _REMOVED:
        op.execute(statement)
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.drop_column('complete')
