"""devices: the player a device belongs to

Revision ID: a753af025971
Revises: 0d5e13543991
Create Date: 2026-12-01 21:34:07.047888

``devices.player_id``: the player a device belongs to, as its owner said on the device's
page or when joining (« Qui êtes-vous ? »); « moi » in a round said in one line is that
player. Existing devices have none (nothing is guessed from their names); a player
deleted leaves the device without one.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a753af025971'
down_revision = '0d5e13543991'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_devices_player_id_players'), 'players', ['player_id'], ['id'], ondelete='SET NULL')


def downgrade():
    with op.batch_alter_table('devices', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_devices_player_id_players'), type_='foreignkey')
        batch_op.drop_column('player_id')
